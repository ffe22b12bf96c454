/**
 * `npm run bench:page-reads [-- --delay-ms 20] [--runs 25]`: how long a signer's view of the signing
 * page waits on the database when the database is far away, as Neon is from the edge. Every query
 * to the embedded PGlite is held `--delay-ms` before it runs (queries asked at once wait together,
 * as requests in flight over HTTP do), so the wall time of a view is about that delay times the
 * round trips it waits for one after another, plus its CPU.
 *
 * Measured in one run, alternating, on the demo seed's NDA sent to two signers and already viewed
 * once (a later view writes nothing):
 * - `one round trip`: a single `select 1`, the baseline;
 * - `page view`: GET /sign/{token} as the route serves it, behind the signing guard (which makes
 *   the link's first read, to know it genuine, and counts the view against its rate limit, in
 *   memory here); the page goes on from that read, with the sender's brand read beside the rest;
 * - `as before`: the same page served as it was until 2026-11-26: the link read again from the
 *   start after the guard, and the brand once the link's state is known.
 * Figures are medians, and each is also given as a multiple of the baseline; each page's queries
 * are counted too, in waves (queries whose times overlap wait together): a count, whatever the
 * machine's load.
 */
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { type Handler, Hono } from 'hono';
import { embeddedServices } from '../src/adapters/embedded/embedded-services.js';
import { openPgliteDatabase } from '../src/adapters/embedded/pglite-database.js';
import { createApp } from '../src/app.js';
import { openSigningLink } from '../src/domain/signing/open-link.js';
import type { AppEnv } from '../src/http/app-env.js';
import { signingGuard } from '../src/signing-page/security.js';
import { loadSeedFile } from '../src/seed/load-seed.js';
import { showSigningPage } from '../functions/signing/show-signing-page.js';
import { signerOf, tokenOf } from '../src/signing-page/link-request.js';
import { respondWithState } from '../src/signing-page/respond-with-state.js';

const { values } = parseArgs({ options: { 'delay-ms': { type: 'string', default: '20' }, runs: { type: 'string', default: '25' } } });
const delayMs = Number(values['delay-ms']);
const runs = Number(values.runs);
const BASE_URL = 'https://esign.example.test';
const NDA_TEMPLATE = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';

const client = new PGlite();
const database = await openPgliteDatabase(client);
const services = embeddedServices({
  database,
  config: { tokenSecret: new TextEncoder().encode('bench-token-secret-0123456789-abcdefghij'), baseUrl: BASE_URL, keyEnvironment: 'test' },
});
const [key] = await loadSeedFile(services, new URL('../seed/demo.json', import.meta.url).pathname);
const app = createApp(services);
const json = async (path: string, init: RequestInit) => {
  const answer = await app.request(`${BASE_URL}${path}`, init);
  if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return answer.json() as Promise<Record<string, unknown>>;
};
const { access_token } = await json('/v1/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: key!.key }) });
const sent = await json('/v1/envelopes/from-template', {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
  body: JSON.stringify({
    template_id: NDA_TEMPLATE,
    recipients: [
      { role: 'Client', name: 'Ann Client', email: 'ann@bench.test' },
      { role: 'Witness', name: 'Walt Witness', email: 'walt@bench.test' },
    ],
  }),
});
const token = String((sent.signing_urls as { signing_url: string }[])[0]!.signing_url).split('/sign/')[1]!;
await services.inProcessQueue.drained();

/** The page behind the signing guard (its own read of the link, and the rate limit, in memory here), served by `handler`. */
function pageServedBy(handler: Handler<AppEnv>) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('services', services);
    await next();
  });
  app.use('/sign/*', signingGuard);
  app.get('/sign/:token', handler);
  return app;
}
// The two orders of the same page, on the same services; the first view records "viewed".
const orders = {
  now: pageServedBy(showSigningPage),
  after: pageServedBy(async (c) => respondWithState(c, tokenOf(c), await openSigningLink(services, tokenOf(c), signerOf(c)))),
};
const view = async (order: keyof typeof orders) => {
  const answer = await orders[order].request(`${BASE_URL}/sign/${token}`);
  const page = await answer.text();
  if (answer.status !== 200 || !page.includes('data-field-box')) throw new Error(`The page answered ${answer.status}, not the sign page`);
};
await view('now');
await services.inProcessQueue.drained();

// From here every query waits as if the database were `delayMs` away, and is noted while traced.
let traced: { from: number; to: number }[] | null = null;
const query = client.query.bind(client);
client.query = (async (...args: Parameters<typeof query>) => {
  const call = { from: performance.now(), to: Number.NaN };
  traced?.push(call);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  try {
    return await query(...args);
  } finally {
    call.to = performance.now();
  }
}) as typeof client.query;

/** The queries of one view, and its waves: queries whose times overlap wait together. */
async function wavesOf(order: keyof typeof orders): Promise<{ queries: number; waves: number }> {
  traced = [];
  await view(order);
  const calls = traced.sort((a, b) => a.from - b.from);
  traced = null;
  let waves = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    if (call.from >= end) waves++;
    end = Math.max(end, call.to);
  }
  return { queries: calls.length, waves };
}
const shapes = { 'page view': await wavesOf('now'), 'as before': await wavesOf('after') };

const subjects: Record<string, () => Promise<unknown>> = {
  'one round trip': () => client.query('select 1'),
  'page view': () => view('now'),
  'as before': () => view('after'),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
for (let run = 0; run < runs; run++) {
  for (const [name, subject] of Object.entries(subjects)) {
    const started = performance.now();
    await subject();
    times[name]!.push(performance.now() - started);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const baseline = median(times['one round trip']!);
console.log(`The signing page's wait on a database ${delayMs} ms away (${runs} runs each, alternating; medians)`);
for (const name of Object.keys(subjects)) {
  const ms = median(times[name]!);
  const shape = shapes[name as keyof typeof shapes];
  const waves = shape ? `   ${shape.queries} queries in ${shape.waves} waves` : '';
  console.log(`${name.padEnd(18)} ${ms.toFixed(1).padStart(7)} ms   ${(ms / baseline).toFixed(2)}× one round trip${waves}`);
}
console.log(`page view ÷ as before: ${(median(times['page view']!) / median(times['as before']!)).toFixed(2)}`);
await services.inProcessQueue.close();
await database.close();
