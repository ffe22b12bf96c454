/**
 * The signing page's defences over the real domain: the security headers of every answer, posts
 * from another site or without the link's form token refused, the per-link and per-address rate
 * limits, the token kept out of the log, and the static files of the embedded server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { publicRoot, staticFiles } from '../../src/entries/static-files.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { PDF_WORKER_CSP, SIGNING_CSP, staticFileHeaders } from '../../src/signing-page/security.js';
import { type Answer, type PageCompany, actsOf, completeForm, openPageStack, expectSecurityHeaders, pageClient, sendForPage } from '../support/signing-page.js';
import { BASE_URL, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: PageCompany;
let client: ReturnType<typeof pageClient>;
beforeAll(async () => ({ stack, company, client } = await openPageStack()));
afterAll(() => stack.close());

/**
 * A failure of ours, not of a dependency: once the request has passed its rate limit, the clock
 * the services read throws it, so that it is met inside the page's handler.
 */
function failWith(error: Error) {
  const { rateLimiter } = stack.services;
  const limit = rateLimiter.limit.bind(rateLimiter);
  const now = stack.clock.now.bind(stack.clock);
  let passed = false;
  const limited = vi.spyOn(rateLimiter, 'limit').mockImplementation(async (...args) => {
    const decision = await limit(...args);
    passed = true;
    return decision;
  });
  const clock = vi.spyOn(stack.clock, 'now').mockImplementation(() => {
    if (passed) throw error;
    return now();
  });
  return {
    mockRestore() {
      limited.mockRestore();
      clock.mockRestore();
    },
  };
}

const unacted = { status: 'sent', acts: [] };

describe('security', () => {
  it('puts the security headers on every answer under /sign/', async () => {
    const { client: token, ids } = await sendForPage(stack, company);
    const answers: [string, Answer][] = [
      ['page', await client.page(token)],
      ['404', await client.page('nope')],
      ['unknown path', await client.request('GET', `/sign/${token}/other`)],
      ['405', await client.request('PUT', `/sign/${token}`)],
      ['403', await client.sign(token, completeForm(ids), { origin: 'https://evil.example' })],
      ['422', await client.sign(token, {})],
      [
        '413',
        await client.request('POST', `/sign/${token}`, {
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
          body: 'a='.padEnd(1024 * 1024 + 10, 'x'),
        }),
      ],
      ['303', await client.sign(token, completeForm(ids))],
    ];
    const failing = failWith(new Error('boom'));
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    answers.push(['500', await client.page(token)]);
    failing.mockRestore();
    quiet.mockRestore();
    for (const [what, answer] of answers) {
      expectSecurityHeaders(answer, what);
      expect(answer.headers.get('content-type') ?? 'text/html', what).toMatch(/^text\/html/);
    }
    expect(answers.map(([, answer]) => answer.status)).toEqual([200, 404, 404, 405, 403, 422, 413, 303, 500]);
    expect(answers[3]![1].headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('refuses a post from another site (Origin, Sec-Fetch-Site), 403', async () => {
    const { envelopeId, client: token, clientId, ids } = await sendForPage(stack, company);
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'http://esign.example.test' },
      { origin: 'https://esign.example.test.evil.example' },
      { origin: BASE_URL, 'sec-fetch-site': 'cross-site' },
      { origin: BASE_URL, 'sec-fetch-site': 'same-site' },
      // A sandboxed frame or a redirect of another site sends `null` too, without same-origin.
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': undefined },
      { origin: '', 'sec-fetch-site': undefined },
    ]) {
      for (const answer of [await client.sign(token, completeForm(ids), headers), await client.decline(token, 'no', headers)]) {
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.text).toContain('The form could not be accepted');
        expectSecurityHeaders(answer, '403');
      }
    }
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject(unacted);
  });

  it('takes the page’s own post, which browsers send as Origin null under no-referrer', async () => {
    const sent = await sendForPage(stack, company);
    const answer = await client.sign(sent.client, completeForm(sent.ids), { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(answer.status).toBe(303);
    // A client that sends neither header (not a browser) depends on the form token alone.
    const other = await sendForPage(stack, company);
    const plain = await client.post(`/sign/${other.client}`, other.client, completeForm(other.ids), { origin: undefined, 'sec-fetch-site': undefined });
    expect(plain.status).toBe(303);
  });

  it('refuses a post without the form token of its link, 403', async () => {
    const { envelopeId, client: token, clientId, witness: otherLink, ids } = await sendForPage(stack, company);
    const bodies = [
      new URLSearchParams(completeForm(ids)),
      new URLSearchParams({ ...completeForm(ids), form_token: 'forged' }),
      new URLSearchParams({ ...completeForm(ids), form_token: await client.formToken(otherLink) }),
      new URLSearchParams({ ...completeForm(ids), form_token: await formToken(new TextEncoder().encode('another-secret-0123456789-abcdefghij'), token) }),
    ];
    const twice = new URLSearchParams(completeForm(ids));
    twice.append('form_token', await client.formToken(token));
    twice.append('form_token', await client.formToken(token));
    bodies.push(twice);
    for (const body of bodies) {
      for (const path of [`/sign/${token}`, `/sign/${token}/decline`]) {
        const answer = await client.request('POST', path, {
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
          body: `${body}&reason=x`,
        });
        expect(answer.status, `${path} ${body}`).toBe(403);
      }
    }
    const json = await client.request('POST', `/sign/${token}`, {
      headers: { 'content-type': 'application/json', origin: BASE_URL },
      body: '{"consent":"yes"}',
    });
    expect(json.status).toBe(403);
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject(unacted);
  });

  it('limits each link to 60 requests in 15 minutes: the 61st gets a 429 page with Retry-After', async () => {
    const { envelopeId, client: token, clientId, ids } = await sendForPage(stack, company);
    for (let i = 0; i < 30; i++) expect((await client.page(token)).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await client.request('GET', `/sign/${token}/document.pdf`)).status).toBe(200);
    const limited = await client.sign(token, completeForm(ids));
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many attempts');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expectSecurityHeaders(limited, '429');
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject({ status: 'viewed', acts: [] });
    // A made-up MAC for the same recipient is not the link: it is not refused by the link's count.
    const [recipient] = token.split('.');
    expect((await client.page(`${recipient}.${'Z'.repeat(43)}`)).status).toBe(404);
    // Other links are not affected, and the window passes.
    expect((await client.page((await sendForPage(stack, company)).client)).status).toBe(200);
    stack.clock.advance(30 * 60 * 1000);
    expect((await client.page(token)).status).toBe(200);
  });

  it('counts tokens that are not a genuine link per client address: 60 in 15 minutes, and never against the link', async () => {
    const { client: token } = await sendForPage(stack, company);
    const [recipient] = token.split('.');
    const from = (address: string) => ({ 'x-test-client-ip': address });
    for (let i = 0; i < 60; i++) expect((await client.page(`${recipient}.${'Z'.repeat(42)}${i % 10}`, from('198.51.100.9'))).status).toBe(404);
    const limited = await client.page(`${recipient}.${'Y'.repeat(43)}`, from('198.51.100.9'));
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many attempts');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expectSecurityHeaders(limited, '429');
    // Nothing else is held back: the real link from that very address, and made-up ones from another.
    expect((await client.page(token, from('198.51.100.9'))).status).toBe(200);
    expect((await client.page(`${recipient}.${'Y'.repeat(43)}`, from('198.51.100.10'))).status).toBe(404);
  });
});

describe('the token stays out of the log', () => {
  let output: string[];
  beforeEach(() => {
    output = [];
    for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        output.push(args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : String(arg))).join(' '));
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());

  it('logs a failure by its route, with the token masked wherever the error quoted it', async () => {
    const { client: token, ids } = await sendForPage(stack, company);
    const mac = token.split('.')[1]!;
    const failing = failWith(Object.assign(new Error(`lookup failed for /sign/${token} (mac ${mac})`), { cause: new Error(`driver: ${token}`) }));
    const answer = await client.page(token);
    failing.mockRestore();
    expect(answer.status).toBe(500);
    expect(answer.text).toContain('Something went wrong');
    expect(answer.text).not.toContain('lookup failed');
    const logged = output.join('\n');
    // By its route and the id the answer carries, so that a signer's report leads to the line.
    expect(logged).toContain(`unhandled error on GET /sign/:token (request ${answer.headers.get('x-request-id')})`);
    expect(logged).toContain('[signing token]');
    expect(logged).not.toContain(mac);

    for (const after of [await client.page(token), await client.sign(token, completeForm(ids)), await client.decline(token, 'x'), await client.page('bad')]) {
      expect(after.status).toBeLessThan(500);
    }
    expect(output.join('\n')).not.toContain(mac);
  });
});

describe('static files of the embedded server', () => {
  const statics = staticFiles();

  it('serves the script, the style and pdf.js with their content types and headers', async () => {
    const files: [string, RegExp][] = [
      ['/static/sign.js', /^text\/javascript/],
      ['/static/sign.css', /^text\/css/],
      ['/static/vendor/pdfjs/pdf.min.mjs', /^text\/javascript/],
      ['/static/vendor/pdfjs/pdf.worker.min.mjs', /^text\/javascript/],
    ];
    for (const [path, type] of files) {
      const response = await statics.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(type);
      expect(await response.text(), path).toBe(readFileSync(join(publicRoot, path), 'utf8'));
      for (const [name, value] of Object.entries(staticFileHeaders(path))) expect(response.headers.get(name), `${path} ${name}`).toBe(value);
    }
    const worker = await statics.request('/static/vendor/pdfjs/pdf.worker.min.mjs');
    expect(worker.headers.get('content-security-policy')).toBe(PDF_WORKER_CSP);
    expect(PDF_WORKER_CSP).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect((await statics.request('/static/sign.js')).headers.get('content-security-policy')).toBe(SIGNING_CSP);
  });

  it('serves nothing outside public/static', async () => {
    for (const path of ['/static/missing.js', '/static/../package.json', '/static/%2e%2e/package.json', '/static/..%2f..%2fpackage.json', '/static/_headers']) {
      const response = await statics.request(path);
      expect(response.status, path).toBe(404);
    }
    expect((await statics.request('/static/sign.js', { method: 'POST' })).status).toBe(404);
  });

  it('gives the Worker’s static assets the same headers (public/_headers)', () => {
    const rules = new Map<string, Map<string, string>>();
    let current: Map<string, string> | undefined;
    for (const line of readFileSync(join(publicRoot, '_headers'), 'utf8').split('\n')) {
      if (line.startsWith('#') || line.trim() === '') continue;
      if (!line.startsWith(' ')) rules.set(line.trim(), (current = new Map()));
      else if (!line.trim().startsWith('!')) {
        const [name, ...value] = line.trim().split(': ');
        current!.set(name!, value.join(': '));
      }
    }
    expect(Object.fromEntries(rules.get('/static/*')!)).toEqual(staticFileHeaders('/static/sign.js'));
    expect(rules.get('/static/vendor/pdfjs/pdf.worker.min.mjs')?.get('Content-Security-Policy')).toBe(PDF_WORKER_CSP);
  });
});
