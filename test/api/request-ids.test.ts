/**
 * Every answer names its request (`X-Request-Id`), and each request leaves one log line that
 * names it too, with the route's pattern and never a path, a query or a credential. The test stack
 * writes no log by default; here it is turned on, into a list.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentDownloadUrl } from '../../src/domain/webhooks/document-link.js';
import { devMailboxRoutes } from '../../src/dev-pages/mailbox-page.js';
import type { RequestLogLine } from '../../src/http/request-log.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { call, type Call, errorCode } from '../support/http.js';
import { createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';

const GENERATED = /^req_[0-9A-Za-z]{22}$/;
const MiB = 1024 * 1024;

let stack: TestStack;
let company: TestCompany;
const lines: RequestLogLine[] = [];

beforeAll(async () => {
  stack = await openStack();
  stack.services.requestLog = (line) => lines.push(line);
  // The dev pages, mounted as `npm start` mounts them.
  stack.app.route('/dev', devMailboxRoutes(stack.services.mailbox));
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());
afterEach(() => {
  lines.length = 0;
});

/** One request, its answer's id, and the one log line that carries that id. */
async function traced(method: string, path: string, options: Call = {}) {
  const answer = await call(stack, method, path, options);
  const id = answer.headers.get('x-request-id');
  const logged = lines.filter((line) => line.request_id === id);
  expect(logged, `one log line for ${method} ${path}`).toHaveLength(1);
  return { ...answer, id: id!, line: logged[0]! };
}

describe('X-Request-Id on every kind of answer', () => {
  const admin = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
  const owner = () => ({ token: company.owner.token });

  // The company is named once the token is verified; `company` marks the rows where it is.
  it.each<[string, string, string, () => Call, number, string | null, ('company' | null)?]>([
    ['a list', 'GET', '/v1/templates', owner, 200, '/v1/templates', 'company'],
    ['the OpenAPI document', 'GET', '/v1/openapi.json', () => ({}), 200, '/v1/openapi.json'],
    ['an unknown route', 'GET', '/v1/nothing-here', owner, 404, null],
    ['an unknown route outside the API', 'GET', '/', () => ({}), 404, null],
    ['another method on a known path', 'DELETE', '/v1/templates', owner, 405, '/v1/templates'],
    ['no token', 'GET', '/v1/contacts', () => ({}), 401, '/v1/contacts'],
    ['a body over 1 MiB', 'POST', '/v1/contacts', () => ({ ...owner(), rawBody: 'x'.repeat(MiB + 1) }), 413, '/v1/contacts'],
    ['a body that fails validation', 'POST', '/v1/contacts', () => ({ ...owner(), body: { name: '' } }), 422, '/v1/contacts', 'company'],
    ['an unknown template', 'GET', `/v1/templates/${crypto.randomUUID()}`, owner, 404, '/v1/templates/{id}', 'company'],
    ['the admin API', 'GET', '/admin/v1/companies', () => admin, 200, '/admin/v1/companies'],
    ['the admin API without its token', 'GET', '/admin/v1/companies', () => ({}), 401, '/admin/v1/companies'],
    ['an unknown admin route', 'GET', '/admin/v1/nothing', () => admin, 404, null],
    ['a dev page', 'GET', '/dev/mailbox.json', () => ({}), 200, '/dev/mailbox.json'],
    ['a brand file', 'GET', '/brand/accent/nothing.css', () => ({}), 404, '/brand/accent/{file}'],
  ])('%s: %s %s', async (_kind, method, path, options, status, route, named = null) => {
    const answer = await traced(method, path, options());
    expect(answer.status).toBe(status);
    expect(answer.id).toMatch(GENERATED);
    expect(answer.line).toEqual({
      request_id: answer.id,
      method,
      route,
      status,
      duration_ms: expect.any(Number),
      company_id: named === 'company' ? company.id : null,
    });
  });

  it('times the request in milliseconds, from its arrival to its answer', async () => {
    // The rate limit check, inside the request, takes 250 ms more of the clock the log reads.
    const realNow = performance.now.bind(performance);
    let skipped = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + skipped);
    const limiter = stack.services.rateLimiter;
    const limit = limiter.limit;
    limiter.limit = (...args) => {
      skipped += 250;
      return limit.apply(limiter, args);
    };
    try {
      const before = performance.now();
      const answer = await traced('GET', '/v1/templates', owner());
      const elapsed = performance.now() - before;
      expect(answer.status).toBe(200);
      expect(answer.line.duration_ms).toBeGreaterThanOrEqual(250);
      // Within the time the caller waited (the log rounds to a tenth of a millisecond).
      expect(answer.line.duration_ms).toBeLessThanOrEqual(elapsed + 0.05);
    } finally {
      limiter.limit = limit;
      clock.mockRestore();
    }
  });

  it('names the company of the token, on success and on refusal after authentication (422, 405 not)', async () => {
    const listed = await traced('GET', '/v1/contacts', owner());
    expect(listed.line.company_id).toBe(company.id);
    // A body read in full before it is handed on (no Content-Length): the record follows it.
    const refused = await traced('POST', '/v1/contacts', { ...owner(), body: { name: '' } });
    expect(refused.status).toBe(422);
    expect(refused.line.company_id).toBe(company.id);
    const created = await traced('POST', '/v1/contacts', { ...owner(), body: { name: 'Ada', email: `ada-${crypto.randomUUID()}@example.test` } });
    expect(created.status).toBe(201);
    expect(created.line).toMatchObject({ route: '/v1/contacts', status: 201, company_id: company.id });
    // Not authenticated: a token that is not ours, and a route that never asks.
    expect((await traced('GET', '/v1/contacts', { token: `${company.owner.token}x` })).line.company_id).toBeNull();
    expect((await traced('DELETE', '/v1/templates', owner())).line.company_id).toBeNull();
  });

  it('gives every request an id of its own', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await traced('GET', '/v1/nothing-here')).id);
    expect(ids.size).toBe(20);
  });

  it('on 429, with the rate limit headers', async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const exchange = () => traced('POST', '/v1/auth/token', { body: { api_key: 'esk_test_not_a_key' }, headers: { 'x-test-client-ip': ip } });
    for (let i = 1; i <= 20; i++) expect((await exchange()).status).toBe(401);
    const limited = await exchange();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect(limited.id).toMatch(GENERATED);
    expect(limited.line).toMatchObject({ route: '/v1/auth/token', status: 429, company_id: null });
  });
});

describe('X-Request-Id when the service fails', () => {
  const { expectLogged } = expectErrorLogs();

  /** The rate limiter fails once with `failure`, as a broken dependency would. */
  async function withLimiterFailing<T>(failure: Error, run: () => Promise<T>): Promise<T> {
    const limiter = stack.services.rateLimiter;
    const limit = limiter.limit;
    limiter.limit = () => Promise.reject(failure);
    try {
      return await run();
    } finally {
      limiter.limit = limit;
    }
  }

  it('on 500, and the error log names the same request', async () => {
    expectLogged(/unhandled error on GET/);
    const answer = await withLimiterFailing(new Error('limiter broke'), () => traced('GET', '/v1/templates', { token: company.owner.token }));
    expect(answer.status).toBe(500);
    expect(errorCode(answer)).toBe('internal_error');
    expect(answer.line).toMatchObject({ route: '/v1/templates', status: 500 });
    // The body stays as the contract has it: the id is in the header only.
    expect(JSON.stringify(answer.body)).not.toContain(answer.id);
    expectLogged(new RegExp(`\\(request ${answer.id}\\)`));
  });

  it('on 503', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const answer = await withLimiterFailing(unreachable, () => traced('GET', '/v1/templates', { token: company.owner.token }));
    expect(answer.status).toBe(503);
    expect(answer.id).toMatch(GENERATED);
    expect(answer.line).toMatchObject({ route: '/v1/templates', status: 503 });
  });
});

describe("the caller's own X-Request-Id", () => {
  const withId = (id: string) => ({ headers: { 'x-request-id': id } });

  it.each([
    ['one character', 'a'],
    ['every allowed kind of character', 'Ab9._:-'],
    ['a UUID', crypto.randomUUID()],
    ['128 characters, the most', 'r'.repeat(128)],
  ])('is echoed when well formed: %s', async (_kind, id) => {
    const answer = await traced('GET', '/v1/nothing-here', withId(id));
    expect(answer.id).toBe(id);
    expect(answer.line.request_id).toBe(id);
  });

  it.each([
    ['129 characters, one too many', 'r'.repeat(129)],
    ['a space inside', 'abc def'],
    ['a slash', 'a/b'],
    ['quotes and markup', '"><script>'],
    ['a comma (two headers joined)', 'one, two'],
    ['a character outside ASCII', 'caf\u00e9'],
  ])('is replaced when malformed: %s', async (_kind, id) => {
    const answer = await traced('GET', '/v1/nothing-here', withId(id));
    expect(answer.id).toMatch(GENERATED);
    expect(JSON.stringify(answer.line)).not.toContain(id);
  });

  it('is echoed on an error answer from an endpoint, and a signing page', async () => {
    const api = await traced('GET', '/v1/contacts', withId('client-call-42'));
    expect(api.status).toBe(401);
    expect(api.id).toBe('client-call-42');
    const page = await traced('GET', '/sign/not-a-link', withId('client-call-43'));
    expect(page.status).toBe(404);
    expect(page.id).toBe('client-call-43');
  });
});

describe('what the log line never holds', () => {
  it('a signing link: the pages log their pattern, not the token', async () => {
    const { links } = await sendTestEnvelope(stack, company);
    const token = links[0]!.token;
    const secretPart = token.split('.')[1]!;
    const page = await traced('GET', `/sign/${token}`);
    expect(page.status).toBe(200);
    expect(page.line).toMatchObject({ method: 'GET', route: '/sign/{token}', status: 200, company_id: null });
    const pdf = await traced('GET', `/sign/${token}/document.pdf?download=1`);
    expect(pdf.line.route).toBe('/sign/{token}/document.pdf');
    const declined = await traced('PUT', `/sign/${token}/decline`);
    expect(declined.status).toBe(405);
    expect(declined.line.route).toBe('/sign/{token}/decline');
    const elsewhere = await traced('GET', `/sign/${token}/somewhere/else`);
    expect(elsewhere.line.route).toBe('/sign/*');
    for (const { line } of [page, pdf, declined, elsewhere]) {
      expect(JSON.stringify(line)).not.toContain(secretPart);
      expect(JSON.stringify(line)).not.toContain(token.split('.')[0]!);
    }
  });

  it("a download link's signature, a query, an access token, an API key", async () => {
    const { envelopeId } = await sendTestEnvelope(stack, company);
    const url = new URL(await documentDownloadUrl(stack.services, company.id, envelopeId));
    const sig = url.searchParams.get('sig')!;
    expect(sig.length).toBeGreaterThan(15);
    const download = await traced('GET', `${url.pathname}${url.search}`);
    expect(download.line.route).toBe('/v1/documents/{envelope_id}');
    const listed = await traced('GET', '/v1/contacts?per_page=7&sig=also-not-logged', { token: company.owner.token });
    const exchanged = await traced('POST', '/v1/auth/token', { body: { api_key: company.owner.key } });
    expect(exchanged.status).toBe(200);
    const logged = JSON.stringify([download.line, listed.line, exchanged.line]);
    for (const secret of [sig, envelopeId, 'per_page', 'also-not-logged', company.owner.token, company.owner.key, exchanged.body.access_token as string]) {
      expect(logged).not.toContain(secret);
    }
    for (const line of [download.line, listed.line, exchanged.line]) {
      expect(Object.keys(line).sort()).toEqual(['company_id', 'duration_ms', 'method', 'request_id', 'route', 'status']);
    }
  });

  it('a made-up method', async () => {
    const answer = await traced('PROPFIND', '/v1/templates');
    expect(answer.status).toBe(405);
    expect(answer.line.method).toBe('OTHER');
  });
});
