/**
 * The hostile input the generated suites send (test/api/generated-input.test.ts on the embedded
 * stack, test/e2e/generated-input.e2e.test.ts on `npm run dev`), and what every answer to it must be.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { documentedCodes } from './documented-codes.js';

/** Every method and path an app answers, from its routing table (middleware and 405 catch-alls aside). */
export function uniqueRoutes(table: { method: string; path: string }[]) {
  const seen = new Map<string, { method: string; path: string }>();
  for (const { method, path } of table) if (method !== 'ALL' && !path.includes('*')) seen.set(`${method} ${path}`, { method, path });
  return [...seen.values()];
}

export const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    "'; drop table envelopes; --",
    '" or 1=1 --',
    '<script>alert(1)</script>',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDFFF lone',
    '../../etc/passwd',
    '%00%ff',
    '{{7*7}}',
    '${jndi:ldap://x}',
    'x'.repeat(5001),
    '\u202Eevil',
  ),
);
export const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e308, -1e308, 2 ** 63, Number.MAX_SAFE_INTEGER + 2, -0, 1e-320));
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, hostileText, hostileNumber, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(
    fc.oneof(
      hostileText,
      fc.constantFrom(
        'template_id',
        'recipients',
        'role',
        'name',
        'email',
        'url',
        'events',
        'reason',
        'page',
        'per_page',
        'api_key',
        '__proto__',
        'constructor',
      ),
    ),
    tie('value'),
    { maxKeys: 6 },
  ),
})).value;
export const body = fc.oneof(
  hostileJson.map((value) => ({ text: JSON.stringify(value), type: 'application/json' })),
  hostileText.map((text) => ({ text, type: 'application/json' })),
  fc.constantFrom(
    { text: `${'['.repeat(5000)}${']'.repeat(5000)}`, type: 'application/json' },
    { text: `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`, type: 'application/json' },
    { text: '{"name":"\\ud800"}', type: 'application/json' },
    { text: 'form_token=x&consent=yes&field.1=%00', type: 'application/x-www-form-urlencoded' },
    { text: '--x\r\nContent-Disposition: form-data; name="template"\r\n\r\n{}\r\n--x--', type: 'multipart/form-data; boundary=x' },
  ),
  hostileText.map((text) => ({ text, type: 'text/plain' })),
);
export const pathId = fc.oneof(
  hostileText.filter((text) => text.length > 0 && !text.includes('/')),
  fc.uuid(),
  fc.constantFrom('env_', 'rcp_x.y', '0', '-1', '%2e%2e'),
);
export const query = fc.dictionary(fc.constantFrom('page', 'per_page', 'status', 'download', 'x'), fc.oneof(hostileText, hostileNumber.map(String)), {
  maxKeys: 3,
});
export const who = fc.constantFrom('owner', 'admin', 'none', 'garbage');

/** A path segment as a client sends it; a lone surrogate goes as the invalid UTF-8 a client could send. */
export function asPathSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `%ED%A0%80${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''))}`;
  }
}

const documented = documentedCodes();
/** What an answer must be, whatever was sent. */
export async function expectDocumentedAnswer(response: Response, what: string) {
  const text = await response.text();
  expect(response.status, `${what} → ${response.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(text, what).not.toMatch(/\n\s+at .+:\d+:\d+/);
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json') && response.status >= 400) {
    const parsed = JSON.parse(text) as { error?: { code?: string; message?: unknown; details?: unknown } };
    expect(typeof parsed.error?.message, what).toBe('string');
    expect(parsed.error?.details, what).toBeTypeOf('object');
    expect(documented.has(parsed.error!.code!), `${what}: ${parsed.error?.code}`).toBe(true);
  } else if (response.status >= 400) {
    // The pages under /sign/ and /dev/ answer in HTML; the queue callback may answer plain text.
    expect(type, what).toMatch(/^(text\/html|text\/plain|application\/json)/);
  }
}
