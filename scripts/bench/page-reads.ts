/**
 * `npm run bench:page-reads`: the database reads each page of the company application waits for,
 * counted over the embedded stack in this process (PGlite in memory, the demo seed). The
 * application promises that a page reads in one wave after the session's (docs/application.md):
 * at most two sequential waves of reads in all. Any page that needs more fails the run (exit 1).
 *
 * Every query to PGlite is noted with when it was sent and when its answer arrived. PGlite runs
 * queries one at a time, so queries asked together do not overlap in time; they queue. A query
 * sent before the current wave's first answer was asked without waiting for any of the wave, so it
 * belongs to that wave; a query sent after an answer arrived starts the next one. The session's
 * read (the guard's, of `app_sessions`) is named in each page's timeline. What runs after the
 * answer (a void's e-mails and webhook events) is left out: nobody waits for it.
 *
 * Signed in through the pages as a browser is (the sign-in link from the dev mailbox), as the demo
 * company's owner, with three envelopes sent through the API first.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite } from '@electric-sql/pglite';
import type { ExecutionContext } from 'hono';
import { embeddedServices } from '../../src/adapters/embedded/embedded-services.js';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';
import { createApp } from '../../src/app.js';
import { applicationRoute } from '../../functions/application-routes.js';
import { routes } from '../../functions/routes.js';
import { ManualClock } from '../../src/ports/clock.js';
import { loadSeedFile } from '../../src/seed/load-seed.js';
import { projectRoot } from '../../local/embedded-server.js';
import { MAX_SHIPPED_BYTES, shippedWeight } from './page-weight.js';

const BASE_URL = 'https://esign.example.test';
const OWNER = 'olivia@acme.test';
const NDA_TEMPLATE = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50'; // the demo seed's Mutual NDA
/** What a page may wait for, the session's read included. */
const MAX_WAVES = 2;

const client = new PGlite();
const database = await openPgliteDatabase(client);
// A clock that stands still: a session seen a minute ago is written again (its last_seen_at), and
// that write would come and go with the machine's speed.
const clock = new ManualClock(new Date());
const services = embeddedServices({
  database,
  clock,
  config: { tokenSecret: new TextEncoder().encode('bench-token-secret-0123456789-abcdefghij'), baseUrl: BASE_URL, keyEnvironment: 'test' },
});
const [key] = await loadSeedFile(services, `${projectRoot}/seed/demo.json`);
if (!key) throw new Error('The demo seed made no API key');
// The routes of `npm start`: the company application's with the API's.
const app = createApp(services, [...routes, applicationRoute]);

/** Work the app hands to waitUntil (the e-mails after an answer), awaited before the next request. */
const pending = new Set<Promise<unknown>>();
const executionCtx: ExecutionContext = {
  waitUntil: (work) => {
    const tracked = work.finally(() => pending.delete(tracked));
    pending.add(tracked);
  },
  passThroughOnException: () => {},
  props: {},
};
async function settled() {
  while (pending.size > 0) await Promise.allSettled([...pending]);
  await services.inProcessQueue.drained();
}

async function api(path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const answer = await app.request(`${BASE_URL}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }, undefined, executionCtx);
  if (!answer.ok) throw new Error(`POST ${path} answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
  return answer.json() as Promise<Record<string, unknown>>;
}

// A few envelopes for the list, sent as a program sends them.
const { access_token } = (await api('/v1/auth/token', { api_key: key.key })) as { access_token: string };
const envelopeIds: string[] = [];
for (let i = 0; i < 3; i++) {
  const sent = await api(
    '/v1/envelopes/from-template',
    {
      template_id: NDA_TEMPLATE,
      recipients: [
        { role: 'Client', name: 'Casey Client', email: `client.${i}@bench.test` },
        { role: 'Witness', name: 'Wes Witness', email: `witness.${i}@bench.test` },
      ],
    },
    access_token,
  );
  envelopeIds.push(String(sent.envelope_id));
}
await settled();

// The browser: a cookie jar, and the form token of the last page shown.
const jar = new Map<string, string>();
let lastPage = '';
async function browse(method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
  const headers: Record<string, string> = {};
  if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let body: string | undefined;
  if (method === 'POST') {
    const token = /name="form_token" value="([^"]+)"/.exec(lastPage)?.[1] ?? '';
    Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin' });
    body = new URLSearchParams({ form_token: token, ...form }).toString();
  }
  const answer = await app.request(`${BASE_URL}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }, undefined, executionCtx);
  for (const line of answer.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  const answeredAt = performance.now();
  const text = await answer.text();
  if (answer.headers.get('content-type')?.startsWith('text/html')) lastPage = text;
  return { status: answer.status, text, answeredAt };
}

// Signing in: the sign-in page, the address, the e-mailed link, and its confirmation.
await browse('GET', '/app');
await browse('POST', '/app/sign-in', { email: OWNER });
await settled();
const mail = services.mailbox.list().find((m) => m.to.email === OWNER && m.tags?.kind === 'app_sign_in');
const link = mail && /https?:\/\/\S+(\/app\/sign-in\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
if (!link) throw new Error(`No sign-in link reached ${OWNER}`);
await browse('GET', link);
const spent = await browse('POST', link);
if (spent.status !== 303) throw new Error(`Spending the sign-in link answered ${spent.status}`);
await settled();

// From here every query a traced page asks is noted: those asked in its request's async context,
// not the queue's (its timers look at its table whenever they fire).
type Query = { what: string; sent: number; answered: number };
const tracing = new AsyncLocalStorage<Query[]>();
/** The statement's verb and the tables it names, as a timeline shows it. */
function describe(sqlText: string): string {
  const verb = /^\s*(\w+)/.exec(sqlText)?.[1]?.toLowerCase() ?? '?';
  const tables = [...new Set([...sqlText.matchAll(/(?:from|join|into|update)\s+"(\w+)"/gi)].map((m) => m[1]))];
  return `${verb} ${tables.join('+')}`;
}
function noted<F extends (sqlText: string, ...rest: never[]) => Promise<unknown>>(query: F, inTransaction = false): F {
  return (async (sqlText: string, ...rest: never[]) => {
    const entry = { what: `${describe(sqlText)}${inTransaction ? ' (in a transaction)' : ''}`, sent: performance.now(), answered: Number.NaN };
    tracing.getStore()?.push(entry);
    try {
      return await query(sqlText, ...rest);
    } finally {
      entry.answered = performance.now();
    }
  }) as F;
}
client.query = noted(client.query.bind(client)) as typeof client.query;
// A transaction's statements go through the transaction's own query (a post's writes).
const transaction = client.transaction.bind(client);
client.transaction = (async (callback: Parameters<typeof transaction>[0]) =>
  transaction(async (tx) => {
    tx.query = noted(tx.query.bind(tx), true) as typeof tx.query;
    return callback(tx);
  })) as typeof client.transaction;

/** Queries grouped into waves: one sent before the current wave's first answer joins that wave. */
function wavesOf(queries: Query[]): string[][] {
  const waves: { firstAnswer: number; queries: string[] }[] = [];
  for (const query of [...queries].sort((a, b) => a.sent - b.sent)) {
    const wave = waves.at(-1);
    if (wave && query.sent < wave.firstAnswer) {
      wave.queries.push(query.what);
      wave.firstAnswer = Math.min(wave.firstAnswer, query.answered);
    } else waves.push({ firstAnswer: query.answered, queries: [query.what] });
  }
  return waves.map((wave) => wave.queries);
}

type Measured = { page: string; status: number; queries: number; waves: string[][]; judged: boolean; shipped: ReturnType<typeof shippedWeight> };
async function measure(
  page: string,
  request: () => Promise<{ status: number; answeredAt: number; text: string }>,
  judged: boolean,
  expected: number,
): Promise<Measured> {
  const traced: Query[] = [];
  const answer = await tracing.run(traced, request);
  // What the request left to run after its answer (the e-mails, the outbox relay) is no wait.
  const queries = traced.filter((query) => query.sent < answer.answeredAt);
  if (answer.status !== expected) throw new Error(`${page} answered ${answer.status}, not ${expected}`);
  await settled();
  return { page, status: answer.status, queries: queries.length, waves: wavesOf(queries), judged, shipped: shippedWeight(answer.text) };
}

const [shown, voided] = envelopeIds as [string, string];
// Each page once before it is counted: modules a route loads on its first request, caches warm.
for (const path of ['/app', '/app/envelopes', `/app/envelopes/${shown}`, '/app/keys', '/app/keys/new']) await browse('GET', path);
const ownerId = /<option value="([^"]+)"[^>]*>[^<]*\(olivia@acme\.test\)<\/option>/.exec(lastPage)?.[1];
if (!ownerId) throw new Error('The new key page offers no owner');
for (const path of [
  '/app/users',
  `/app/users/${ownerId}`,
  '/app/audit',
  '/app/templates',
  `/app/templates/${NDA_TEMPLATE}`,
  `/app/templates/${NDA_TEMPLATE}/edit`,
])
  await browse('GET', path);

const results: Measured[] = [
  await measure('GET /app', () => browse('GET', '/app'), true, 200),
  await measure('GET /app/envelopes', () => browse('GET', '/app/envelopes'), true, 200),
  await measure('GET /app/envelopes/{id}', () => browse('GET', `/app/envelopes/${shown}`), true, 200),
  await measure('GET /app/keys', () => browse('GET', '/app/keys'), true, 200),
  await measure('GET /app/users', () => browse('GET', '/app/users'), true, 200),
  await measure('GET /app/users/{id}', () => browse('GET', `/app/users/${ownerId}`), true, 200),
  await measure('GET /app/audit', () => browse('GET', '/app/audit'), true, 200),
  await measure('GET /app/templates', () => browse('GET', '/app/templates'), true, 200),
  await measure('GET /app/templates/{id}', () => browse('GET', `/app/templates/${NDA_TEMPLATE}`), true, 200),
  await measure('GET /app/templates/{id}/edit', () => browse('GET', `/app/templates/${NDA_TEMPLATE}/edit`), true, 200),
  await measure('GET /app/audit (filtered)', () => browse('GET', `/app/audit?group=keys&user=${ownerId}`), true, 200),
  await measure('POST /app/envelopes/{id}/void', () => browse('POST', `/app/envelopes/${voided}/void`, { reason: 'Sent by mistake' }), false, 303),
  await measure('POST /app/keys', () => browse('POST', '/app/keys', { name: 'Bench key', scope: 'contacts:read', owner: ownerId }), false, 200),
];
// The key just made, rotated then revoked, each posted from its confirmation page (its form token).
await browse('GET', '/app/keys');
const benchKey = /href="\/app\/keys\/([^/"]+)\/rotate" aria-label="Rotate Bench key"/.exec(lastPage)?.[1];
if (!benchKey) throw new Error('The keys list does not show the key made');
await browse('GET', `/app/keys/${benchKey}/rotate`);
results.push(await measure('POST /app/keys/{id}/rotate', () => browse('POST', `/app/keys/${benchKey}/rotate`), false, 200));
await browse('GET', `/app/keys/${benchKey}/revoke`);
results.push(await measure('POST /app/keys/{id}/revoke', () => browse('POST', `/app/keys/${benchKey}/revoke`), false, 303));

// A webhook subscription of the demo company, made as a program makes one (a public address: nothing
// is delivered to it, as no event of its kind happens after it), then its pages.
const hook = await api('/v1/webhooks', { url: 'https://93.184.215.14/hooks/bench', events: ['envelope.sent'] }, access_token);
for (const path of ['/app/webhooks', '/app/webhooks/new', `/app/webhooks/${hook.id}`]) await browse('GET', path);
results.push(
  await measure('GET /app/webhooks', () => browse('GET', '/app/webhooks'), true, 200),
  await measure('GET /app/webhooks/new', () => browse('GET', '/app/webhooks/new'), true, 200),
  await measure('GET /app/webhooks/{id}', () => browse('GET', `/app/webhooks/${hook.id}`), true, 200),
);

// The settings page (brand, origins and usage read at once) and the e-mail preview it frames.
for (const path of ['/app/settings', '/app/settings/email-preview']) await browse('GET', path);
results.push(
  await measure('GET /app/settings', () => browse('GET', '/app/settings'), true, 200),
  await measure('GET /app/settings/email-preview', () => browse('GET', '/app/settings/email-preview'), true, 200),
);

const SESSION_READ = /app_sessions/;
console.log(`The company application's database reads per page (embedded PGlite, the demo seed, ${envelopeIds.length} envelopes sent; signed in as ${OWNER})`);
console.log(
  `${'page'.padEnd(32)}${'status'.padStart(7)}${'queries'.padStart(9)}${'waves'.padStart(7)}  after the session's (reads+writes); script and style (gzip)`,
);
/** A wave that reads: one with a select asked outside a transaction (a post's writes come in one). */
const readsIn = (wave: string[]) => wave.some((what) => what.startsWith('select') && !what.endsWith('(in a transaction)'));
let tooManyWaves = false;
let heavy = false;
for (const r of results) {
  const afterSession = r.waves.length - (r.waves[0]?.some((what) => SESSION_READ.test(what)) ? 1 : 0);
  const readWaves = r.waves.filter(readsIn).length;
  const over = r.judged && r.waves.length > MAX_WAVES;
  const weighty = r.shipped.gzipBytes > MAX_SHIPPED_BYTES;
  tooManyWaves ||= over;
  heavy ||= weighty;
  const loaded =
    r.shipped.loaded.length > 0 ? `; its scripts then load ${(r.shipped.loadedGzipBytes / 1024).toFixed(1)} KiB (${r.shipped.loaded.join(', ')})` : '';
  const shipped = `${(r.shipped.gzipBytes / 1024).toFixed(1)} KiB (${r.shipped.assets.join(', ') || 'none'})${weighty ? ' OVER THE AIM' : ''}${loaded}`;
  console.log(
    `${r.page.padEnd(32)}${String(r.status).padStart(7)}${String(r.queries).padStart(9)}${String(r.waves.length).padStart(7)}  ${afterSession} (${readWaves} read, ${r.waves.length - readWaves} write)${over ? '  OVER THE AIM' : ''}; ${shipped}`,
  );
  for (const [i, wave] of r.waves.entries()) {
    const named = wave.map((what) => (SESSION_READ.test(what) && i === 0 ? `${what} (the session's read)` : what));
    console.log(`    ${i + 1}. ${named.join('; ')}`);
  }
}
console.log(`\nAim: a GET page waits for at most ${MAX_WAVES} waves of reads, the session's included: ${tooManyWaves ? 'DOES NOT HOLD' : 'holds'}`);
console.log(`Aim: a page ships at most ${MAX_SHIPPED_BYTES / 1024} KiB of script and style (gzip): ${heavy ? 'DOES NOT HOLD' : 'holds'}`);
// The builder's pdf.js is loaded by its script once the page is shown, as the signing page loads it: weighed, not held to the aim.
const loadedByScript = results.filter((r) => r.shipped.loaded.length > 0).map((r) => `${r.page} ${(r.shipped.loadedGzipBytes / 1024).toFixed(1)} KiB`);
if (loadedByScript.length > 0) console.log(`Loaded by a page's script after it is shown (gzip, not held to the aim): ${loadedByScript.join('; ')}`);
await services.inProcessQueue.close();
await database.close();
process.exitCode = tooManyWaves || heavy ? 1 : 0;
