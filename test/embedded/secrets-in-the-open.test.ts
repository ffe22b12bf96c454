/**
 * Where secrets may appear, and nowhere else: the embedded server run as `npm start` runs it, a
 * whole flow through it over HTTP (token exchange, a webhook subscription, a send, both signers
 * through the page, the finished PDF, the audit trail, deliveries, the dev pages, and a few
 * refusals), every answer and every line the server logged after its start kept, then searched for
 * the API key, the access token, the admin token, each signing link's secret part, the webhook
 * secret and the sealing key. Each may appear only in the answers that hand it out. The log holds
 * one JSON line per request (LOG_REQUESTS is on by default), named by the id its answer carried.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signingBrowser } from '../support/signing-browser.js';
import { freePort, type ServerRun, startServer } from './server-process.js';

const DEMO_KEY = 'esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc';
const NDA = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';

type Seen = { label: string; text: string };
let server: ServerRun & { output: string };
let scratch: string;
let base: string;
/** Every answer of the flow, headers and body, labelled by its request. */
const answers: Seen[] = [];
/** The X-Request-Id of every answer of the flow, labelled by its request. */
const requestIds: { label: string; id: string | null }[] = [];
/** The request log: the JSON lines the server printed after its start. */
let logLines: Record<string, unknown>[] = [];
/** The signature of a download link of envelope.document_ready, fetched during the flow. */
let downloadSignature = '';

async function fetchText(label: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
  const body = Buffer.from(await response.arrayBuffer()).toString('latin1');
  requestIds.push({ label, id: response.headers.get('x-request-id') });
  answers.push({ label, text: `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n\n${body}` });
  return { status: response.status, body };
}
const json = async (label: string, path: string, init: RequestInit = {}) => {
  const { status, body } = await fetchText(label, path, init);
  return { status, body: JSON.parse(body) };
};
const post = (token: string | undefined, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

const secrets: Record<string, string> = {};
/** The answers allowed to carry each secret. */
const allowedIn: Record<string, (label: string) => boolean> = {};

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'secrets-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer({ PORT: String(port), DATA_DIR: join(scratch, 'data') });
  const startupLength = { stdout: server.stdout().length, stderr: server.stderr().length };
  const links: Record<string, string> = {};
  const { signThroughPage } = signingBrowser(
    () => base,
    (path, answer) => {
      const who = Object.keys(links).find((name) => path.includes(links[name]!)) ?? 'nobody';
      requestIds.push({ label: `signing page of ${who}`, id: answer.headers.get('x-request-id') });
      answers.push({
        label: `signing page of ${who}`,
        text: `${[...answer.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n\n${answer.text}`,
      });
    },
  );

  const exchanged = await json('token exchange', '/v1/auth/token', post(undefined, { api_key: DEMO_KEY }));
  const token = exchanged.body.access_token as string;
  const adminToken = /^Admin token:\s+(\S+)/m.exec(server.output)![1]!;

  const subscribed = await json(
    'webhook subscription',
    '/v1/webhooks',
    post(token, { url: `${base}/dev/webhooks/inbox/secrets`, events: ['envelope.sent', 'envelope.signed', 'envelope.completed', 'envelope.document_ready'] }),
  );
  expect(subscribed.status).toBe(201);

  const sent = await json(
    'send',
    '/v1/envelopes/from-template',
    post(token, {
      template_id: NDA,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: 'cleo@example.test' },
        { role: 'Witness', name: 'Will Witness', email: 'will@example.test' },
      ],
    }),
  );
  expect(sent.status).toBe(201);
  const envelopeId = sent.body.envelope_id as string;
  const [client, witness] = (sent.body.signing_urls as { signing_url: string | null }[]).flatMap((entry) =>
    entry.signing_url ? [entry.signing_url.split('/sign/')[1]!] : [],
  );
  await json('signing links', `/v1/envelopes/${envelopeId}/signing-links`, { headers: { authorization: `Bearer ${token}` } });

  // The signers, through the page; each page (and its answers) is the one place its own link shows.
  Object.assign(links, { client: client!, witness: witness! });
  expect((await signThroughPage(client!, 'Cleo Client')).status).toBe(200);
  expect((await signThroughPage(witness!, 'Will Witness')).status).toBe(200);
  const admin = { headers: { authorization: `Bearer ${adminToken}` } };
  await vi.waitFor(async () => expect((await fetchText('admin document', `/admin/v1/envelopes/${envelopeId}/document`, admin)).status).toBe(200), {
    timeout: 30_000,
    interval: 500,
  });
  await fetchText('finished PDF through the link', `/sign/${client}/document.pdf?download=1`);
  await json('audit trail', `/admin/v1/envelopes/${envelopeId}/audit`, admin);
  await vi.waitFor(
    async () => {
      const delivered = await json('webhook inbox', '/dev/webhooks.json');
      expect((delivered.body.data as unknown[]).length).toBeGreaterThanOrEqual(4);
    },
    { timeout: 30_000, interval: 500 },
  );
  await fetchText('webhook inbox page', '/dev/webhooks');
  // The download link of envelope.document_ready: its `sig` is a credential, and must not be logged.
  let download = '';
  await vi.waitFor(
    async () => {
      const inbox = await fetchText('webhook inbox again', '/dev/webhooks.json');
      download = /\/v1\/documents\/[^"?\\]+\?[^"\\]*/.exec(inbox.body)?.[0] ?? '';
      expect(download).not.toBe('');
    },
    { timeout: 30_000, interval: 500 },
  );
  downloadSignature = new URLSearchParams(download.split('?')[1]).get('sig')!;
  expect((await fetchText('document through the download link', download)).status).toBe(200);
  await json('deliveries', `/v1/webhooks/${subscribed.body.id}/deliveries`, { headers: { authorization: `Bearer ${token}` } });
  await json('subscriptions', '/v1/webhooks', { headers: { authorization: `Bearer ${token}` } });
  await fetchText('dev mailbox', '/dev/mailbox.json');
  // Refusals, whose messages must not echo what was sent.
  await json('wrong key', '/v1/auth/token', post(undefined, { api_key: `${DEMO_KEY}x` }));
  await json('tampered token', '/v1/templates', { headers: { authorization: `Bearer ${token}x` } });
  await fetchText('tampered link', `/sign/${client}x`);
  await json('bad send', '/v1/envelopes/from-template', post(token, { template_id: NDA, recipients: [{ role: 'Client', name: token, email: DEMO_KEY }] }));

  const seal = JSON.parse(await readFile(join(scratch, 'data', 'seal.json'), 'utf8')) as { key_pem: string };
  const keyBody = seal.key_pem.replace(/-----[A-Z ]+-----|\s/g, '');
  Object.assign(secrets, {
    'API key': DEMO_KEY,
    'access token': token,
    'admin token': adminToken,
    "the client's signing link": client!.split('.')[1]!,
    "the witness's signing link": witness!.split('.')[1]!,
    'webhook secret': subscribed.body.secret as string,
    // Any stretch of the key's base64 would do; one from its middle is the private part.
    'sealing key': keyBody.slice(400, 464),
  });
  const handsOutLinks = (label: string) => ['send', 'signing links', 'dev mailbox'].includes(label);
  Object.assign(allowedIn, {
    'access token': (label: string) => label === 'token exchange',
    "the client's signing link": (label: string) => handsOutLinks(label) || label === 'signing page of client',
    "the witness's signing link": (label: string) => handsOutLinks(label) || label === 'signing page of witness',
    'webhook secret': (label: string) => label === 'webhook subscription',
  });
  // The log line of the last answer is written as it goes out; wait for it rather than a while.
  const lastId = requestIds.at(-1)!.id!;
  await vi.waitFor(() => expect(server.stdout()).toContain(lastId), { timeout: 5000, interval: 50 });
  answers.push({ label: 'server log after start', text: server.stdout().slice(startupLength.stdout) + server.stderr().slice(startupLength.stderr) });
  logLines = server
    .stdout()
    .slice(startupLength.stdout)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}, 120_000);

afterAll(async () => {
  server?.kill();
  await server?.ended;
  await rm(scratch, { recursive: true, force: true });
});

describe('secrets in the open, after a whole flow on npm start', () => {
  it('kept every answer and the log', () => {
    expect(answers.length).toBeGreaterThan(20);
    expect(Object.keys(secrets)).toHaveLength(7);
  });

  it.each(['API key', 'access token', 'admin token', "the client's signing link", "the witness's signing link", 'webhook secret', 'sealing key'])(
    '%s: appears only where it is handed out',
    (name) => {
      const secret = secrets[name]!;
      expect(secret.length).toBeGreaterThan(15);
      const allowed = allowedIn[name] ?? (() => false);
      const leaks = answers.filter(({ label, text }) => !allowed(label) && text.includes(secret)).map(({ label }) => label);
      expect(leaks).toEqual([]);
      // The places that hand it out do carry it, so the search above looks for the right thing.
      if (allowedIn[name]) expect(answers.some(({ label, text }) => allowed(label) && text.includes(secret))).toBe(true);
    },
  );
});

describe('the request log of npm start', () => {
  const lineOf = (id: string | null) => logLines.filter((line) => line.request_id === id);

  it('has one line per request, named by the X-Request-Id its answer carried', () => {
    expect(requestIds.length).toBeGreaterThan(20);
    for (const { label, id } of requestIds) {
      expect(id, label).toMatch(/^req_[0-9A-Za-z]{22}$/);
      expect(lineOf(id), label).toHaveLength(1);
      expect(Object.keys(lineOf(id)[0]!).sort(), label).toEqual(['company_id', 'duration_ms', 'method', 'request_id', 'route', 'status']);
    }
  });

  it('names routes by pattern and the company of the token', () => {
    const sent = lineOf(requestIds.find(({ label }) => label === 'send')!.id)[0];
    expect(sent).toMatchObject({ method: 'POST', route: '/v1/envelopes/from-template', status: 201, company_id: '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60' });
    const links = lineOf(requestIds.find(({ label }) => label === 'signing links')!.id)[0];
    expect(links).toMatchObject({ route: '/v1/envelopes/{id}/signing-links', status: 200 });
    const page = lineOf(requestIds.find(({ label }) => label === 'signing page of client')!.id)[0];
    expect(page).toMatchObject({ route: '/sign/{token}', company_id: null });
    const download = lineOf(requestIds.find(({ label }) => label === 'document through the download link')!.id)[0];
    expect(download).toMatchObject({ route: '/v1/documents/{envelope_id}', status: 200 });
    expect(lineOf(requestIds.find(({ label }) => label === 'tampered token')!.id)[0]).toMatchObject({ status: 401, company_id: null });
  });

  it("holds no path, no query and no download link's signature", () => {
    expect(downloadSignature.length).toBeGreaterThan(15);
    const log = answers.find(({ label }) => label === 'server log after start')!.text;
    expect(log).not.toContain(downloadSignature);
    expect(log).not.toContain('sig=');
    expect(log).not.toContain('download=1');
    for (const line of logLines) expect(String(line.route ?? '')).not.toMatch(/\/sign\/[^{*]|env_/);
  });
});
