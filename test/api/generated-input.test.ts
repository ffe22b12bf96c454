/**
 * Hostile input, generated: fast-check throws made-up bodies, queries, headers, path ids and form
 * posts at every route the app serves — read from the app's own routing table (public, admin,
 * signing, the dev pages and the queue callback), so a route added later is fuzzed too — and
 * every answer must be of a documented shape: JSON `{ error: { code, message, details } }` with a
 * code the README documents (or a success), or for the signing pages an HTML page; never a 5xx,
 * never a stack trace. Bounded in `npm test` (FUZZ_RUNS, default 25 per route, seeded); `.ci/run`
 * runs it longer with other seeds.
 */
import { Receiver } from '@upstash/qstash';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devMailboxRoutes } from '../../src/http/dev-mailbox.js';
import { devWebhookRoutes } from '../../src/http/dev-webhooks.js';
import { queueCallbackRoutes } from '../../src/http/queue-callback.js';
import { documentedCodes } from '../support/documented-codes.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let stack: TestStack;
let company: TestCompany;
let routes: { method: string; path: string }[];
const ids: Record<string, string> = {};
beforeAll(async () => {
  stack = await openStack();
  // The routes the entries add beside the app: the dev pages (npm start) and the queue callback (the Worker).
  stack.app.route('/', devMailboxRoutes(stack.services.mailbox));
  stack.app.route('/', devWebhookRoutes(stack.services));
  stack.app.route('/', queueCallbackRoutes(new Receiver({ currentSigningKey: 'sig_fuzz_current', nextSigningKey: 'sig_fuzz_next' })));
  company = await createTestCompany(stack);
  const template = await createTestTemplate(stack, company.id);
  ids.template = template.id;
  ids.company = company.id;
  routes = uniqueRoutes(stack.app.routes);
}, 60_000);
afterAll(() => stack.close());

/** Every method and path the app answers, from its routing table (middleware and 405 catch-alls aside). */
function uniqueRoutes(table: { method: string; path: string }[]) {
  const seen = new Map<string, { method: string; path: string }>();
  for (const { method, path } of table) if (method !== 'ALL' && !path.includes('*')) seen.set(`${method} ${path}`, { method, path });
  return [...seen.values()];
}

const hostileText = fc.oneof(
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
const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e308, -1e308, 2 ** 63, Number.MAX_SAFE_INTEGER + 2, -0, 1e-320));
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, hostileText, hostileNumber, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(hostileText, fc.constantFrom('template_id', 'recipients', 'role', 'name', 'email', 'url', 'events', 'reason', 'page', 'per_page', 'api_key', '__proto__', 'constructor')), tie('value'), { maxKeys: 6 }),
})).value;
const body = fc.oneof(
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
const pathId = fc.oneof(hostileText.filter((text) => text.length > 0 && !text.includes('/')), fc.uuid(), fc.constantFrom('env_', 'rcp_x.y', '0', '-1', '%2e%2e'));
const query = fc.dictionary(fc.constantFrom('page', 'per_page', 'status', 'download', 'x'), fc.oneof(hostileText, hostileNumber.map(String)), { maxKeys: 3 });
const who = fc.constantFrom('owner', 'admin', 'none', 'garbage');

/** A path segment as a client sends it; a lone surrogate goes as the invalid UTF-8 a client could send. */
function asPathSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `%ED%A0%80${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''))}`;
  }
}

const documented = documentedCodes();
/** What an answer must be, whatever was sent. */
async function expectDocumentedAnswer(response: Response, what: string) {
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

describe('generated hostile input, on every route of the app', () => {
  it('reaches every kind of route: public, admin, signing, dev and queue', () => {
    const paths = routes.map((route) => route.path);
    for (const prefix of ['/v1/', '/admin/v1/', '/sign/', '/dev/', '/internal/queue/']) expect(paths.some((path) => path.startsWith(prefix)), prefix).toBe(true);
  });

  it('answers everything with a documented code or page, never a 5xx', async () => {
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(body, pathId, query, who, fc.boolean(), async (sent, id, params, caller, realIds) => {
          // Real ids where the path names one, so that the validation behind them is reached too.
          const path = route.path.replaceAll(/:(\w+)/g, (_, name: string) =>
            asPathSegment(realIds ? (name === 'companyId' ? ids.company! : name === 'id' && route.path.includes('template') ? ids.template! : id) : id),
          );
          const search = Object.entries(params as Record<string, string>).map(([name, value]) => `${name}=${asPathSegment(value)}`).join('&');
          const headers: Record<string, string> = { 'content-type': sent.type, 'x-test-client-ip': `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
          if (caller === 'owner') headers.authorization = `Bearer ${company.owner.token}`;
          if (caller === 'admin') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
          // A header carries no control or non-Latin-1 characters: no client can send them.
          if (caller === 'garbage') headers.authorization = `Bearer ${id.replace(/[^\x20-\x7e]/g, '~')}`;
          const init: RequestInit = { method: route.method, headers };
          if (!['GET', 'HEAD'].includes(route.method)) init.body = sent.text;
          const response = await stack.app.request(`${path}${search ? `?${search}` : ''}`, init);
          await expectDocumentedAnswer(response, `${route.method} ${path}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  }, 600_000);

  it('refuses forged tokens on an authenticated route: alg none, HS/RS confusion, no exp', async () => {
    const claims = { cid: company.id, kid: company.owner.id, ver: 1 };
    const { publicKey } = await crypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
    // HS/RS confusion: an HS256 token whose key is a public key, as a verifier that took RS256 keys would misuse it.
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
    const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(spki);
    const rsSigned = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign((await crypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign'])).privateKey);
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const none = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...claims, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 })}.`;
    const [header, payload, signature] = company.owner.token.split('.');
    const withoutExp = `${header}.${encode({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), exp: undefined })}.${signature}`;
    for (const token of [confused, rsSigned, none, withoutExp]) {
      const response = await stack.app.request('/v1/templates', { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
  });
});
