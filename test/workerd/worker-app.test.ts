/**
 * The whole Worker (src/entries/worker.ts, as wrangler.toml names it) called through its default
 * export inside workerd, for answers that need no database.
 */
import { env, exports } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import workerModule from '../../src/entries/worker.js';
import { expectErrorResponse } from '../support/expect-error.js';
import { qstashDelivery, qstashSignature } from './qstash-signature.js';

const BASE = 'https://esign.example.test';
const MiB = 1024 * 1024;

const worker = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`${BASE}${path}`, init));

describe('the Worker’s routing', () => {
  it('answers an unknown route with 404 not_found as JSON', async () => {
    const body = await expectErrorResponse(await worker('/v1/nothing-here'), 404, 'not_found');
    expect(body.error.message).toContain('/v1/nothing-here');
    await expectErrorResponse(await worker('/'), 404, 'not_found');
    await expectErrorResponse(await worker('/v2/templates', { headers: { authorization: 'Bearer x' } }), 404, 'not_found');
  });

  it('answers another method on a known path with 405 method_not_allowed and Allow', async () => {
    const templates = await worker('/v1/templates', { method: 'DELETE' });
    expect(templates.headers.get('Allow')).toBe('GET');
    await expectErrorResponse(templates, 405, 'method_not_allowed');
    const contacts = await worker('/v1/contacts', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(contacts.headers.get('Allow')).toBe('GET, POST');
    await expectErrorResponse(contacts, 405, 'method_not_allowed');
    expect((await worker('/v1/auth/token')).headers.get('Allow')).toBe('POST');
  });

  it('serves the OpenAPI 3.1 document, with BASE_URL from the Worker’s env as its server', async () => {
    const response = await worker('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: String(env.BASE_URL) }]);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/auth/token', '/v1/templates', '/v1/contacts']));
  });

  it('has no admin API without ADMIN_TOKEN: plain 404 even for its document', async () => {
    expect(env.ADMIN_TOKEN).toBeUndefined();
    await expectErrorResponse(await worker('/admin/v1/openapi.json', { headers: { authorization: 'Bearer anything-at-all-0123456789' } }), 404, 'not_found');
  });
});

describe('the Worker’s guards', () => {
  const padded = (size: number) => {
    const start = '{"name":"A","email":"big@example.test","pad":"';
    return `${start}${'x'.repeat(size - start.length - 2)}"}`;
  };

  it('answers a 2 MiB body to /v1/contacts with 413 payload_too_large, before asking who sends it', async () => {
    const response = await worker('/v1/contacts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: padded(2 * MiB) });
    const body = await expectErrorResponse(response, 413, 'payload_too_large');
    expect(body.error.details).toEqual({ limit: '1 MiB' });
  });

  it('also counts a streamed body that announces no length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 2 * MiB) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    // Straight into the default export (the same module instance the pool serves): through the
    // service binding, workerd would log the refused stream's broken pipe as an uncaught error.
    const request = new Request(`${BASE}/v1/contacts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream });
    expect(request.headers.get('content-length')).toBeNull();
    await expectErrorResponse(await workerModule.fetch(request), 413, 'payload_too_large');
    expect(sent).toBeLessThan(2 * MiB);
  });

  it('answers a request without a token, or with one the Worker did not sign, with 401 unauthorized', async () => {
    await expectErrorResponse(await worker('/v1/templates'), 401, 'unauthorized');
    await expectErrorResponse(await worker('/v1/contacts', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'unauthorized');
    const { SignJWT } = await import('jose');
    const forged = await new SignJWT({ cid: crypto.randomUUID(), ver: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('esign-api')
      .setAudience('esign-api/v1')
      .setSubject('key_forged')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-workers-token-secret-0123456789'));
    await expectErrorResponse(await worker('/v1/templates', { headers: { authorization: `Bearer ${forged}` } }), 401, 'unauthorized');
  });

  it('answers a token request that is not JSON with 422 validation_failed', async () => {
    await expectErrorResponse(
      await worker('/v1/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"api_key":' }),
      422,
      'validation_failed',
    );
  });
});

describe('the Worker’s queue callback', () => {
  const url = `${BASE}/internal/queue/no.such.topic`;
  const body = JSON.stringify({ hello: 'workerd' });

  it('refuses an unsigned delivery with 401', async () => {
    await expectErrorResponse(await exports.default.fetch(qstashDelivery(url, body, undefined)), 401, 'unauthorized');
  });

  it('verifies with the signing keys of its env (current, then next), and dead-letters an unknown topic', async () => {
    for (const key of [env.QSTASH_CURRENT_SIGNING_KEY, env.QSTASH_NEXT_SIGNING_KEY]) {
      const response = await exports.default.fetch(qstashDelivery(url, body, await qstashSignature(String(key), url, body)));
      expect(response.status).toBe(489);
      expect(response.headers.get('Upstash-NonRetryable-Error')).toBe('true');
    }
    const wrongKey = await qstashSignature('sig_not_the_workers_key_0123', url, body);
    await expectErrorResponse(await exports.default.fetch(qstashDelivery(url, body, wrongKey)), 401, 'unauthorized');
  });
});

describe('the Worker’s request ids and log lines', () => {
  const GENERATED = /^req_[0-9A-Za-z]{22}$/;
  let lines: Record<string, unknown>[];
  beforeEach(() => {
    lines = [];
    // What Workers Logs would collect: each JSON line the Worker writes to the console.
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      const text = args.map(String).join(' ');
      if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  /** The answer's id, and the one line that carries it. */
  async function traced(response: Response) {
    const id = response.headers.get('x-request-id')!;
    const logged = lines.filter((line) => line.request_id === id);
    expect(logged).toHaveLength(1);
    return { status: response.status, id, line: logged[0]! };
  }

  it('puts an id on every kind of answer, and logs each request once, with its route pattern', async () => {
    const body = JSON.stringify({ hello: 'workerd' });
    const queueUrl = `${BASE}/internal/queue/no.such.topic`;
    const signed = await qstashSignature(String(env.QSTASH_CURRENT_SIGNING_KEY), queueUrl, body);
    const cases: [Promise<Response>, number, string | null][] = [
      [worker('/v1/openapi.json'), 200, '/v1/openapi.json'],
      [worker('/v1/nothing-here'), 404, null],
      [worker('/v1/templates', { method: 'DELETE' }), 405, '/v1/templates'],
      [worker('/v1/templates'), 401, '/v1/templates'],
      [worker('/v1/contacts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(MiB + 1) }), 413, '/v1/contacts'],
      [worker('/v1/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"api_key":' }), 422, '/v1/auth/token'],
      [exports.default.fetch(qstashDelivery(queueUrl, body, undefined)), 401, '/internal/queue/{topic}'],
      [exports.default.fetch(qstashDelivery(queueUrl, body, signed)), 489, '/internal/queue/{topic}'],
    ];
    for (const [pending, status, route] of cases) {
      const answer = await traced(await pending);
      expect(answer.status).toBe(status);
      expect(answer.id).toMatch(GENERATED);
      expect(answer.line).toEqual({ request_id: answer.id, method: expect.any(String), route, status, duration_ms: expect.any(Number), company_id: null });
    }
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const echoed = await traced(await worker('/v1/nothing-here', { headers: { 'x-request-id': 'edge-call:42' } }));
    expect(echoed.id).toBe('edge-call:42');
    const tooLong = await traced(await worker('/v1/nothing-here', { headers: { 'x-request-id': 'r'.repeat(129) } }));
    expect(tooLong.id).toMatch(GENERATED);
    const spaced = await traced(await worker('/v1/nothing-here', { headers: { 'x-request-id': 'two words' } }));
    expect(spaced.id).toMatch(GENERATED);
  });

  it("logs a signing page and a download link by pattern: never the link's token, its signature or a query", async () => {
    const token = `rcp_${'A'.repeat(22)}.SecretPartOfTheLink0123456789`;
    const page = await traced(await worker(`/sign/${token}`));
    expect(page.line.route).toBe('/sign/{token}');
    const download = await traced(await worker('/v1/documents/env_0123456789012345678901?expires=1&sig=SignatureNeverLogged0123'));
    expect(download.line.route).toBe('/v1/documents/{envelope_id}');
    const logged = JSON.stringify([page.line, download.line]);
    for (const secret of ['SecretPartOfTheLink', 'SignatureNeverLogged', 'env_0123456789012345678901', 'expires']) expect(logged).not.toContain(secret);
  });
});
