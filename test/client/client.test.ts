/**
 * The TypeScript client (clients/typescript) against `npm start` run as a process, as a user runs
 * both: its token cache, typed calls and errors, the retried send, and the example script.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, inspect, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ESignApiError, ESignClient, verifyWebhook } from '../../clients/typescript/src/index.js';
import { type ServerRun, freePort, projectRoot, startServer, userEnvironment } from '../embedded/server-process.js';

const DEMO_KEY = 'esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc';
const NDA_TEMPLATE = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const ndaRecipients = [
  { role: 'Client', name: 'Ada Client', email: 'ada.client@example.com' },
  { role: 'Witness', name: 'Will Witness', email: 'will.witness@example.com' },
];

let server: ServerRun | undefined;
let scratch: string;
let baseUrl: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'esign-client-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = await startServer({ PORT: String(port), DATA_DIR: join(scratch, 'data') });
});
afterAll(async () => {
  await server?.stop();
  await rm(scratch, { recursive: true, force: true });
});

/** A fetch that records each request's method and path, and can interfere with chosen ones. */
function recordingFetch(interfere?: (request: Request, answer: Response, seen: number) => Response | Promise<Response>) {
  const requests: string[] = [];
  const fetchImpl = async (request: Request) => {
    const path = new URL(request.url).pathname;
    requests.push(`${request.method} ${path}`);
    const answer = await fetch(request);
    return interfere ? interfere(request, answer, requests.filter((entry) => entry === `${request.method} ${path}`).length) : answer;
  };
  return { requests, fetchImpl };
}

/** What a `for…in` loop over an object visits, its prototypes' enumerable properties included. */
function keysInOrder(value: object): string[] {
  const keys: string[] = [];
  for (const key in value) keys.push(key);
  return keys;
}

describe('ESignClient', () => {
  it('exchanges the key once for several calls, and lists templates typed', async () => {
    const { requests, fetchImpl } = recordingFetch();
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl });
    const [templates] = await Promise.all([client.listTemplates({ per_page: 100 }), client.listContacts(), client.listWebhooks()]);
    await client.listTemplates({ page: 1 });
    expect(client.tokenExchanges).toBe(1);
    expect(requests.filter((request) => request === 'POST /v1/auth/token')).toHaveLength(1);
    expect(requests).toHaveLength(5);
    expect(templates.data.map((template) => template.id)).toContain(NDA_TEMPLATE);
  });

  it('exchanges the key again when the service refuses the cached token', async () => {
    const { requests, fetchImpl } = recordingFetch((request, answer) =>
      // The first call's token is refused, as a revoked or expired one is.
      request.url.endsWith('/v1/contacts') && requests.filter((entry) => entry === 'GET /v1/contacts').length === 1
        ? new Response('{}', { status: 401 })
        : answer,
    );
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl });
    const contacts = await client.listContacts();
    expect(Array.isArray(contacts.data)).toBe(true);
    expect(client.tokenExchanges).toBe(2);
    expect(requests).toEqual(['POST /v1/auth/token', 'GET /v1/contacts', 'POST /v1/auth/token', 'GET /v1/contacts']);
  });

  it('retries a send whose answer was lost with the same Idempotency-Key, and gets the same envelope', async () => {
    const keys: (string | null)[] = [];
    const answered: string[] = [];
    const { fetchImpl } = recordingFetch(async (request, answer, seen) => {
      if (!request.url.endsWith('/v1/envelopes/from-template')) return answer;
      keys.push(request.headers.get('idempotency-key'));
      answered.push(((await answer.clone().json()) as { envelope_id: string }).envelope_id);
      // The service made the envelope, but its answer never reaches the caller.
      if (seen === 1) throw new TypeError('fetch failed');
      // Then a 503 asking for a retry at once.
      if (seen === 2)
        return new Response(JSON.stringify({ error: { code: 'service_unavailable', message: 'Retry shortly.', details: {} } }), {
          status: 503,
          headers: { 'retry-after': '0' },
        });
      return answer;
    });
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl, retry: { baseDelayMs: 1 } });
    const idempotencyKey = `client-test-${randomUUID()}`;
    const envelope = await client.sendEnvelope({ template_id: NDA_TEMPLATE, recipients: ndaRecipients }, { idempotencyKey });
    expect(keys).toEqual([idempotencyKey, idempotencyKey, idempotencyKey]);
    expect(new Set(answered)).toEqual(new Set([envelope.envelope_id]));
    expect(envelope.status).toBe('sent');
    expect(envelope.recipients.map((recipient) => recipient.role).sort()).toEqual(['Client', 'Witness']);
  });

  it('waits out a 429 and a send still in progress, and gives up at once on a Retry-After beyond its bound', async () => {
    const errorAnswer = (status: number, code: string, retryAfter: string) =>
      new Response(JSON.stringify({ error: { code, message: code, details: {} } }), { status, headers: { 'retry-after': retryAfter } });
    const { requests, fetchImpl } = recordingFetch((request, answer, seen) => {
      if (!request.url.endsWith('/v1/envelopes/from-template')) return answer;
      if (seen === 1) return errorAnswer(429, 'rate_limited', '0');
      if (seen === 2) return errorAnswer(409, 'idempotency_request_in_progress', '0');
      if (seen === 4) return errorAnswer(503, 'service_unavailable', '3600');
      return answer;
    });
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl, retry: { baseDelayMs: 1 } });
    const envelope = await client.sendEnvelope({ template_id: NDA_TEMPLATE, recipients: ndaRecipients });
    expect(envelope.status).toBe('sent');
    expect(requests.filter((request) => request === 'POST /v1/envelopes/from-template')).toHaveLength(3);
    await expect(client.sendEnvelope({ template_id: NDA_TEMPLATE, recipients: ndaRecipients })).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryAfterSeconds: 3600,
    });
    expect(requests.filter((request) => request === 'POST /v1/envelopes/from-template')).toHaveLength(4);
  });

  it('never retries a refused send (422)', async () => {
    const { requests, fetchImpl } = recordingFetch();
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl, retry: { baseDelayMs: 1 } });
    const failure = await client
      .sendEnvelope({ template_id: NDA_TEMPLATE, recipients: [{ role: 'Nobody', name: 'N', email: 'n@example.com' }] })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ESignApiError);
    expect((failure as ESignApiError).status).toBe(422);
    expect(requests.filter((request) => request === 'POST /v1/envelopes/from-template')).toHaveLength(1);
  });

  it('gives up after its bounded attempts', async () => {
    const { requests, fetchImpl } = recordingFetch((request, answer) => {
      if (request.url.endsWith('/v1/envelopes/from-template')) throw new TypeError('fetch failed');
      return answer;
    });
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl, retry: { attempts: 3, baseDelayMs: 1 } });
    await expect(client.sendEnvelope({ template_id: NDA_TEMPLATE, recipients: ndaRecipients })).rejects.toThrow('fetch failed');
    expect(requests.filter((request) => request === 'POST /v1/envelopes/from-template')).toHaveLength(3);
  });

  it('throws a typed error for an unknown template, without retrying and without the key in it', async () => {
    const { requests, fetchImpl } = recordingFetch();
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl, retry: { baseDelayMs: 1 } });
    const failure = await client.sendEnvelope({ template_id: randomUUID(), recipients: ndaRecipients }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ESignApiError);
    expect(failure).toMatchObject({ status: 404, code: 'template_not_found' });
    expect((failure as ESignApiError).message).not.toContain(DEMO_KEY);
    expect(JSON.stringify((failure as ESignApiError).details)).not.toContain(DEMO_KEY);
    expect(requests.filter((request) => request === 'POST /v1/envelopes/from-template')).toHaveLength(1);
  });

  it('keeps its key and its token to itself: inspecting, printing, serialising or cloning a live client shows neither', async () => {
    let token = '';
    const { fetchImpl } = recordingFetch(async (request, answer) => {
      if (request.url.endsWith('/v1/auth/token')) token = ((await answer.clone().json()) as { access_token: string }).access_token;
      return answer;
    });
    const client = new ESignClient({ baseUrl, apiKey: DEMO_KEY, fetch: fetchImpl });
    // Live: the key was exchanged and the token is cached and in use.
    await client.listTemplates({ per_page: 1 });
    await client.listContacts();
    expect(client.tokenExchanges).toBe(1);
    expect(token.length).toBeGreaterThan(20);

    const views: Record<string, () => string> = {
      'util.inspect': () => inspect(client, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
      'util.inspect of raw': () => inspect(client.raw, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
      'console.log': () => format('%o', client),
      'JSON.stringify': () => JSON.stringify(client) ?? '',
      structuredClone: () => JSON.stringify(structuredClone(client)),
      'Object.keys': () => JSON.stringify(Object.keys(client)),
      'own properties': () =>
        JSON.stringify(Reflect.ownKeys(client).map((key) => [String(key), String((client as unknown as Record<PropertyKey, unknown>)[key])])),
      spread: () => JSON.stringify({ ...client }),
      'for…in': () => JSON.stringify(keysInOrder(client)),
    };
    for (const [view, show] of Object.entries(views)) {
      const text = show();
      expect(text, view).not.toContain(DEMO_KEY);
      expect(text, view).not.toContain(token);
    }
    // What is shown is only what is meant to be: the class, and nothing of its state.
    expect(JSON.stringify(client)).toBe('{}');
    expect(Object.keys(client)).toEqual([]);
    // And it still works after being looked at.
    expect((await client.listTemplates({ per_page: 1 })).data).toHaveLength(1);
  });

  it('throws a typed error when the key is refused', async () => {
    const client = new ESignClient({ baseUrl, apiKey: 'esk_test_not_a_real_key_0000000000000' });
    const failure = await client.listTemplates().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ESignApiError);
    expect((failure as ESignApiError).status).toBe(401);
    expect((failure as ESignApiError).message).not.toContain('esk_test_not_a_real_key');
  });
});

describe('verifyWebhook', () => {
  const secret = `whsec_${Buffer.from('a-webhook-secret-of-32-bytes-xyz').toString('base64')}`;
  const payload = JSON.stringify({ type: 'webhook.test', timestamp: '2026-11-22T12:00:00.000Z', data: {} });
  const signed = (body: string, at = new Date()) => {
    const id = `msg_${randomUUID()}`;
    return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body) };
  };

  it('returns the event of a delivery signed with the secret, from a Headers or a plain object', () => {
    const headers = signed(payload);
    expect(verifyWebhook(payload, headers, secret)).toMatchObject({ type: 'webhook.test' });
    expect(verifyWebhook(new TextEncoder().encode(payload), new Headers(headers), secret)).toMatchObject({ type: 'webhook.test' });
  });

  it('refuses an altered body, another secret and a stale timestamp', () => {
    const headers = signed(payload);
    expect(() => verifyWebhook(payload.replace('webhook.test', 'envelope.signed'), headers, secret)).toThrow();
    expect(() => verifyWebhook(payload, headers, `whsec_${Buffer.from('another-secret-of-thirty-two-byt').toString('base64')}`)).toThrow();
    expect(() => verifyWebhook(payload, signed(payload, new Date(Date.now() - 10 * 60_000)), secret)).toThrow();
  });
});

describe('examples/send-and-wait.ts', () => {
  it('sends, signs, waits for the verified document_ready delivery and writes the finished PDF', async () => {
    const out = join(scratch, 'signed-nda.pdf');
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'examples/send-and-wait.ts', out], {
      cwd: projectRoot,
      env: { ...userEnvironment(), BASE_URL: baseUrl, API_KEY: DEMO_KEY, WAIT_SECONDS: '60' },
      timeout: 90_000,
    });
    const pdf = await readFile(out);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(stdout).toContain(`SHA-256 ${createHash('sha256').update(pdf).digest('hex')}`);
    expect(stdout).toMatch(/Signed as Ada Client/);
    expect(stdout).toMatch(/Signed as Will Witness/);
    expect(stdout).toMatch(/verified deliveries, the last envelope.document_ready/);
  }, 120_000);
});
