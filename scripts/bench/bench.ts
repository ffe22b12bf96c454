/**
 * `npm run bench [-- --sends N] [--concurrency C] [--rounds R] [--warmup W] [--cold-runs N] [--cpu-runs N]
 *   [--json file] [--profile-dir dir] [--only embedded]`: --profile-dir keeps the workerd cold start's
 *   first-request profile and the cold starts' callgrind profiles; --only embedded runs part 1 alone,
 *   which has no aim left, for its figures (a minute or two, for trying a change:
 *   `npm run bench -- --only embedded --sends 600 --rounds 3`)
 * (`npm run bench -- --soak …` runs the soak test of scripts/bench/soak.ts instead)
 *
 * One file although long: each part below starts the stacks it measures and prints its own section
 * of the report, and the parts share the run's baseline; split by part, they would each restate it.
 *
 * 1. Throughput and latency of a send on the embedded server, started as a user starts it, against
 *    a trivial authenticated route in the same run (`GET /v1/contacts?per_page=1`: a key check, the
 *    rate limit and two small reads). The two kinds alternate in rounds so that machine noise hits
 *    both, and the send is reported as ratios to the baseline: information, no longer an aim.
 * 2. Round trips of one send through the production adapters (Neon HTTP, Upstash Redis, QStash) over
 *    the local stand-ins, counted by watching global fetch, which all three clients use. Requests to
 *    one service whose time intervals overlap form one wave; the waves are its sequential round trips.
 *    The aim (send-envelope.ts): at most 3 waves on the request path (reads, admission, write).
 * 3. The deployed API Worker in workerd (workerd.ts): its cold start against the stack floor,
 *    a Worker of the same packages that does the least for one authenticated read
 *    (stack-floor/ here), and each route's CPU time.
 * Any non-2xx answer fails the run, and so does an aim that does not hold (exit 1).
 * Part 2 needs a Redis (REDIS_URL, default db 8 of the local one); DATABASE_URL replaces PGlite there.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { startStandins } from '../../local/standins/start.js';
import { embeddedServices } from '../../src/adapters/embedded/embedded-services.js';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';
import { openNodePostgresDatabase } from '../../src/adapters/postgres/node-postgres-database.js';
import { productionServices } from '../../src/adapters/production/production-services.js';
import { createApp } from '../../src/app.js';
import { routes as routingTable } from '../../functions/routes.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { scopes } from '../../src/domain/auth/scopes.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { importTemplate, storeTemplateDocument } from '../../src/domain/templates/import-template.js';
import { companyContext, verbContext } from '../../src/domain/verb-context.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { inlinePdfMaker } from '../../src/pdf/inline-pdf-maker.js';
import { measureWorkerd, type WorkerdRoute } from './workerd.js';
import { readWorkerConfig } from '../../src/entries/worker-config.js';
import { randomBase62 } from '../../src/lib/crypto.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { loadSeedFile } from '../../src/seed/load-seed.js';
import { freePort, projectRoot, startServer } from '../../local/embedded-server.js';

// `npm run bench -- --soak`: the soak test (scripts/bench/soak.ts) instead of the benchmark.
if (process.argv.includes('--soak')) {
  await import('./soak.js');
  process.exit(process.exitCode ?? 0);
}

const number = (fallback: string) => ({ type: 'string', default: fallback }) as const;
const { values: opts } = parseArgs({
  options: {
    sends: number('1500'),
    concurrency: number('8'),
    rounds: number('5'),
    warmup: number('50'),
    'cold-runs': number('5'),
    'cpu-runs': number('15'),
    json: { type: 'string' },
    'profile-dir': { type: 'string' },
    only: { type: 'string' },
  },
});
const [sends, concurrency, rounds, warmup, coldRuns, cpuRuns] = [
  opts.sends,
  opts.concurrency,
  opts.rounds,
  opts.warmup,
  opts['cold-runs'],
  opts['cpu-runs'],
].map(Number) as [number, number, number, number, number, number];
if (![sends, concurrency, rounds, coldRuns, cpuRuns].every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(warmup) || warmup < 0) {
  throw new Error('--sends, --concurrency, --rounds, --cold-runs and --cpu-runs take positive whole numbers, --warmup a whole number');
}
// Every key sends at most the send limit, and each is exchanged once over HTTP, within the per-IP
// exchange limit (a margin of 2 for a person trying the server at the same time).
const keyCount = Math.ceil((sends + warmup) / rateRules.send.limit);
const maxKeys = rateRules.tokenExchange.limit - 2;
if (opts.only !== undefined && opts.only !== 'embedded') throw new Error('--only takes `embedded` (part 1 alone)');
if (keyCount > maxKeys) throw new Error(`${sends + warmup} sends need ${keyCount} keys; at most ${maxKeys} fit the token exchange limit`);

const RUN_BUDGET_MS = 150_000; // part 1 as a whole, server start included
const REQUEST_TIMEOUT_MS = 15_000;
const TEMPLATE_ID = 'b3e1c0de-7a11-4b3c-9d2e-0f1a2b3c4d5e'; // the demo Mutual NDA under an id of its own
const COMPANY_ID = 'b3e1c0de-0c0f-4e5a-8b6c-7d8e9f0a1b2c';
const runId = randomBase62(8); // new key ids per run: limits kept in a shared Redis never carry over

/** The demo company as a company of its own (so it can sit beside the demo in a shared database). */
async function writeBenchSeed(dir: string): Promise<{ path: string; keys: string[]; everyScope: string }> {
  const demo = JSON.parse(await readFile(join(projectRoot, 'seed/demo.json'), 'utf8'));
  const acme = demo.companies[0];
  const nda = acme.templates.find((template: { name: string }) => template.name === 'Mutual NDA');
  const keys = Array.from({ length: keyCount }, (_, i) => ({
    id: `key_bench_${runId}_${i}`,
    owner: 'olivia@acme.test',
    key: `esk_test_bench_${randomBase62(32)}`,
    scopes: ['contacts:read', 'envelopes:send'],
  }));
  // Parts 2 and 3 read templates and write contacts too: a key with every scope.
  const everyScope = { id: `key_bench_${runId}_all`, owner: 'olivia@acme.test', key: `esk_test_bench_${randomBase62(32)}`, scopes: [...scopes] };
  const company = {
    ...acme,
    id: COMPANY_ID,
    name: 'Bench Ltd',
    api_signature_requests_per_period: 1_000_000,
    api_keys: [...keys, everyScope],
    templates: [{ ...nda, id: TEMPLATE_ID }],
  };
  const path = join(dir, 'bench-seed.json');
  await writeFile(path, JSON.stringify({ companies: [company] }));
  return { path, keys: keys.map((key) => key.key), everyScope: everyScope.key };
}

let sent = 0;
/** A send of the NDA's two unlocked roles to addresses never used before. */
const sendBody = () => {
  const n = `${runId}.${sent++}`;
  return JSON.stringify({
    template_id: TEMPLATE_ID,
    recipients: [
      { role: 'Client', name: 'Casey Client', email: `client.${n}@bench.test` },
      { role: 'Witness', name: 'Wes Witness', email: `witness.${n}@bench.test` },
    ],
  });
};

/** A template of `roles` signer roles, 10 fields each, for the send's CPU at its size. */
function rolesTemplate(roles: number): TemplateDefinition {
  const names = Array.from({ length: roles }, (_, i) => `Signer ${i + 1}`);
  return {
    name: `Bench: ${roles} roles`,
    email_subject: null,
    email_message: null,
    expiry_days: 30,
    reminders: { first_after_days: 2, every_days: 3 },
    signing_order: 'parallel',
    share_signing_links: false,
    roles: names.map((name, i) => ({ name, type: 'signer' as const, order: i + 1, locked: false })),
    fields: names.flatMap((role, r) =>
      Array.from({ length: 10 }, (_, f) => ({
        role,
        type: f === 0 ? ('signature' as const) : ('text' as const),
        page: 1 + (r % 2),
        x: 40 + (f % 5) * 100,
        y: 40 + (r % 20) * 36,
        width: 90,
        height: 18,
        required: f === 0,
      })),
    ),
  };
}
const rolesSendBody = (templateId: string, roles: number) => () => {
  const n = `${runId}.${sent++}`;
  return JSON.stringify({
    template_id: templateId,
    recipients: Array.from({ length: roles }, (_, i) => ({ role: `Signer ${i + 1}`, name: `Signer ${i + 1}`, email: `signer${i + 1}.${n}@bench.test` })),
  });
};
let contactsMade = 0;
const contactBody = () => JSON.stringify({ name: 'Bench Contact', email: `contact.${runId}.${contactsMade++}@bench.test` });
/** The roles of the templates the send's CPU is measured at. */
const SEND_SIZES = [2, 10, 50] as const;

function stats(latencies: number[], elapsedMs: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const [p50_ms, p90_ms, p99_ms, max_ms] = [at(0.5), at(0.9), at(0.99), sorted.at(-1)!].map(round) as [number, number, number, number];
  return { requests: sorted.length, per_second: round(sorted.length / (elapsedMs / 1000)), p50_ms, p90_ms, p99_ms, max_ms };
}

type Seed = Awaited<ReturnType<typeof writeBenchSeed>>;

/** Part 1: the embedded server in a child process, loaded at a fixed concurrency. */
async function embeddedThroughput(tmp: string, seed: Seed) {
  const deadline = Date.now() + RUN_BUDGET_MS;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer({ PORT: String(port), DATA_DIR: join(tmp, 'data'), SEED_FILE: seed.path });
  try {
    const call = async (path: string, init: RequestInit = {}) => {
      const answer = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const text = await answer.text();
      if (!answer.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${answer.status}: ${text.slice(0, 300)}`);
      return text;
    };
    const tokens: string[] = [];
    for (const key of seed.keys) {
      const body = await call('/v1/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: key }) });
      tokens.push((JSON.parse(body) as { access_token: string }).access_token);
    }
    // Keys in turn, counted per kind, so that none goes over its limit (100 sends, 1000 others).
    const turns = { baseline: 0, send: 0 };
    const auth = (kind: keyof typeof turns) => ({ authorization: `Bearer ${tokens[turns[kind]++ % tokens.length]}`, 'content-type': 'application/json' });
    const kinds = {
      baseline: () => call('/v1/contacts?per_page=1', { headers: auth('baseline') }),
      send: () => call('/v1/envelopes/from-template', { method: 'POST', headers: auth('send'), body: sendBody() }),
    };
    type Kind = keyof typeof kinds;

    /** `count` requests of one kind by `concurrency` workers; the latency of each and the wall time. */
    const phase = async (kind: Kind, count: number) => {
      const latencies: number[] = [];
      let started = 0;
      let failed = false; // the other workers stop too, rather than load a server being stopped
      const worker = async () => {
        while (started < count && !failed) {
          started++;
          const t = performance.now();
          if (Date.now() > deadline) {
            failed = true;
            throw new Error(`The embedded run took over ${RUN_BUDGET_MS / 1000} s; try fewer --sends`);
          }
          await kinds[kind]().catch((err: unknown) => {
            failed = true;
            throw err;
          });
          latencies.push(performance.now() - t);
        }
      };
      const t = performance.now();
      await Promise.all(Array.from({ length: concurrency }, worker));
      return { latencies, ms: performance.now() - t };
    };

    await phase('baseline', warmup); // not counted: JIT, connection pool, PGlite's caches
    await phase('send', warmup);
    const all = { baseline: { latencies: [] as number[], ms: 0 }, send: { latencies: [] as number[], ms: 0 } };
    for (let round = 0; round < rounds; round++) {
      const count = Math.floor(sends / rounds) + (round < sends % rounds ? 1 : 0);
      // Alternating which goes first, so that neither always follows the other's after-effects
      // (the in-process queue delivers each send's e-mail and webhook event just after it).
      for (const kind of (round % 2 === 0 ? ['baseline', 'send'] : ['send', 'baseline']) as Kind[]) {
        const result = await phase(kind, count);
        all[kind].latencies.push(...result.latencies);
        all[kind].ms += result.ms;
      }
    }
    const baseline = stats(all.baseline.latencies, all.baseline.ms);
    const send = stats(all.send.latencies, all.send.ms);
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      concurrency,
      keys: keyCount,
      rounds,
      warmup,
      baseline_route: 'GET /v1/contacts?per_page=1',
      baseline,
      send,
      send_vs_baseline: {
        throughput: ratio(send.per_second, baseline.per_second),
        p50: ratio(send.p50_ms, baseline.p50_ms),
        p99: ratio(send.p99_ms, baseline.p99_ms),
      },
    };
  } finally {
    await server.stop(); // SIGTERM to the process group, SIGKILL after 15 s
  }
}

type Call = { service: string; what: string; start: number; end: number };
type Wave = { service: string; requests: number; from_ms: number; to_ms: number; calls: string[] };
const SERVICES = ['neon', 'redis', 'qstash'] as const;

/** What a request to a stand-in was for, from its body: the tables, the Redis commands and keys. */
function describe(service: string, path: string, body: unknown): string {
  const sql = (query: string) => {
    const verb = /^\s*(\w+)/.exec(query)?.[1] ?? '?';
    const tables = [...query.matchAll(/(?:from|join|into|update) "(\w+)"/g)].map((m) => m[1]);
    return `${verb} ${[...new Set(tables)].join('+')}`;
  };
  const command = (args: unknown[]) => `${args[0]} ${/^esign:(rl:\w+|quota)/.exec(String(args[3] ?? args[1] ?? ''))?.[1] ?? ''}`.trim();
  try {
    const parsed = typeof body === 'string' ? JSON.parse(body) : undefined;
    if (service === 'neon') return parsed.queries ? `batch[${parsed.queries.map((q: { query: string }) => sql(q.query)).join(', ')}]` : sql(parsed.query);
    if (service === 'redis') return `${path} [${(Array.isArray(parsed[0]) ? parsed : [parsed]).map(command).join(', ')}]`;
    return Array.isArray(parsed) ? `${path} (${parsed.length} messages)` : path;
  } catch {
    return path;
  }
}

/** One service's requests, grouped into waves: a request that overlaps the wave so far joins it. */
function wavesOf(calls: Call[]): Wave[] {
  const waves: Wave[] = [];
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    const last = waves.at(-1);
    if (last && call.start < last.to_ms) {
      last.requests++;
      last.to_ms = Math.max(last.to_ms, call.end);
      last.calls.push(call.what);
    } else waves.push({ service: call.service, requests: 1, from_ms: call.start, to_ms: call.end, calls: [call.what] });
  }
  return waves.map((wave) => ({ ...wave, from_ms: Math.round(wave.from_ms * 10) / 10, to_ms: Math.round(wave.to_ms * 10) / 10 }));
}

/** Part 2: the production adapters in this process, over the stand-ins, one request at a time. */
async function productionRoundTrips(seed: Seed) {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/8';
  const tokenSecret = randomBase62(40);
  // Migrate and seed first, as `npm run dev` does, over the database the Neon stand-in will serve.
  const pglite = databaseUrl ? undefined : new PGlite();
  const database = databaseUrl ? await openNodePostgresDatabase(databaseUrl) : await openPgliteDatabase(pglite);
  const seeding = embeddedServices({
    database,
    config: { tokenSecret: new TextEncoder().encode(tokenSecret), baseUrl: 'http://127.0.0.1', keyEnvironment: 'test' },
  });
  // QStash delivers each message at once; this sink takes the callbacks, so none is retried meanwhile.
  const sink = createServer((_request, response) => response.end('ok'));
  const realFetch = globalThis.fetch;
  let standins: Awaited<ReturnType<typeof startStandins>> | undefined;
  try {
    await loadSeedFile(seeding, seed.path);
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    standins = await startStandins({ postgresUrl: databaseUrl, pglite, redisUrl });
    const { neon, redis, qstash } = standins;
    if (!redis) throw new Error('The Redis stand-in did not start');
    const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    // The Worker's configuration, aimed at the stand-ins as `npm run dev` aims it.
    const workerEnv: Record<string, string> = {
      DATABASE_URL: 'postgres://bench:bench@neon.localhost/esign', // the stand-in serves its own database
      NEON_FETCH_ENDPOINT: neon.sqlEndpoint,
      UPSTASH_REDIS_REST_URL: redis.url,
      UPSTASH_REDIS_REST_TOKEN: redis.token,
      QSTASH_URL: qstash.url,
      QSTASH_TOKEN: qstash.token,
      QSTASH_CURRENT_SIGNING_KEY: qstash.signingKeys.current,
      QSTASH_NEXT_SIGNING_KEY: qstash.signingKeys.next,
      TOKEN_SECRET: tokenSecret,
      BASE_URL: sinkUrl,
      EMAIL_API_URL: `${sinkUrl}/emails`,
      EMAIL_API_KEY: 'bench-email-key',
      EMAIL_FROM: 'Bench <bench@bench.test>',
      WEBHOOK_SECRET_KEYS: 'test1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
    };
    const config = readWorkerConfig(workerEnv);
    // No route measured here makes a PDF; a template import would read its pages in this process.
    const services = productionServices(config, inlinePdfMaker({}, nodeFontSource(), seeding.documents), seeding.documents);
    const app = createApp(services, routingTable);
    // The send's CPU is measured at several sizes: a template of each, in the database the stand-in serves.
    const sized = new Map<number, string>();
    for (const roles of SEND_SIZES) {
      const definition = rolesTemplate(roles);
      const ctx = companyContext(seeding, { kind: 'operator' }, COMPANY_ID);
      const stored = await storeTemplateDocument(ctx, { fileName: 'bench.pdf', bytes: await generateDocument(definition.name, 2, nodeFontSource()) });
      const template = await importTemplate(ctx, { definition, document: { fileName: 'bench.pdf', stored } });
      sized.set(roles, template.id);
    }
    const { access_token } = await exchangeApiKey(verbContext(services, { kind: 'system' }), { apiKey: seed.everyScope });
    const serviceAt = new Map([
      [neon.url, 'neon'],
      [redis.url, 'redis'],
      [qstash.url, 'qstash'],
    ]);

    /** One request to the app, with every request it makes to a stand-in and when. */
    const traced = async (label: string, path: string, init: RequestInit = {}) => {
      const calls: Call[] = [];
      const t0 = performance.now();
      globalThis.fetch = async (input, requestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        const service = serviceAt.get(url.origin);
        if (!service) return realFetch(input, requestInit); // QStash's deliveries to the sink
        const call = { service, what: describe(service, url.pathname, requestInit?.body), start: performance.now() - t0, end: Number.NaN };
        calls.push(call);
        try {
          return await realFetch(input, requestInit);
        } finally {
          call.end = performance.now() - t0;
        }
      };
      let answeredAt = Number.POSITIVE_INFINITY;
      try {
        const answer = await app.request(path, { ...init, headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' } });
        if (!answer.ok) throw new Error(`${label} answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
        await answer.arrayBuffer();
        answeredAt = performance.now() - t0;
        // What follows the answer (the outbox relay) is traced too, and marked as such.
        await new Promise((resolve) => setTimeout(resolve, 200));
      } finally {
        globalThis.fetch = realFetch;
      }
      const ms = Math.round(answeredAt * 10) / 10;
      const onPath = calls.filter((c) => c.start < answeredAt);
      const after = calls.filter((c) => c.start >= answeredAt);
      const waves = SERVICES.map((s) => wavesOf(onPath.filter((c) => c.service === s)));
      const perService = Object.fromEntries(SERVICES.map((s, i) => [s, { requests: waves[i]!.reduce((n, w) => n + w.requests, 0), waves: waves[i]!.length }]));
      const afterWaves = SERVICES.flatMap((s) => wavesOf(after.filter((c) => c.service === s))).map((wave) => ({ ...wave, after_response: true }));
      // The request's own sequential waits: requests to any service that overlap form one network wave.
      const networkWaves = wavesOf(onPath.map((c) => ({ ...c, service: 'any' }))).length;
      return {
        label,
        ms,
        network_waves: networkWaves,
        per_service: perService,
        timeline: [...waves.flat(), ...afterWaves].sort((a, b) => a.from_ms - b.from_ms),
      };
    };
    const send = (label: string, body = sendBody) => traced(label, '/v1/envelopes/from-template', { method: 'POST', body: body() });
    const gets = {
      contacts: 'GET /v1/contacts?per_page=1',
      templates: 'GET /v1/templates',
      template: `GET /v1/templates/${TEMPLATE_ID}`,
    };
    // The first send runs in a fresh "isolate", with a Redis stand-in that knows no script yet (so
    // its first EVALSHA may fail with NOSCRIPT); the first GET likewise for the other limit's script.
    const requests = {
      send_first: await send('POST /v1/envelopes/from-template (first request)'),
      get_first: await traced(`${gets.contacts} (first of its limit)`, '/v1/contacts?per_page=1'),
      get_contacts: await traced(gets.contacts, '/v1/contacts?per_page=1'),
      get_templates: await traced(gets.templates, '/v1/templates'),
      get_template: await traced(gets.template, `/v1/templates/${TEMPLATE_ID}`),
      post_contact: await traced('POST /v1/contacts', '/v1/contacts', { method: 'POST', body: contactBody() }),
      send: await send('POST /v1/envelopes/from-template'),
      send_10_roles: await send('POST /v1/envelopes/from-template (10 roles, 100 fields)', rolesSendBody(sized.get(10)!, 10)),
    };
    const steady = [requests.send, requests.send_10_roles];
    const steadyGets = [requests.get_contacts, requests.get_templates, requests.get_template];
    const roundTrips = {
      database: neon.backend,
      aims: {
        get_one_wave: steadyGets.every((r) => r.network_waves === 1),
        send_three_waves: steady.every((r) => r.network_waves <= 3 && r.per_service.qstash!.requests === 0),
      },
      requests,
    };

    // Part 3: the deployed bundle in workerd, over the same stand-ins.
    const json = (body: () => string) => () => ({
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: body(),
    });
    const get = () => ({ headers: { authorization: `Bearer ${access_token}` } });
    const routes: WorkerdRoute[] = [
      { name: gets.contacts, path: '/v1/contacts?per_page=1', init: get, expect: 200 },
      { name: gets.templates, path: '/v1/templates', init: get, expect: 200 },
      { name: 'GET /v1/templates/{id}', path: `/v1/templates/${TEMPLATE_ID}`, init: get, expect: 200 },
      { name: 'POST /v1/contacts', path: '/v1/contacts', init: json(contactBody), expect: 201 },
      { name: 'GET /v1/openapi.json', path: '/v1/openapi.json', expect: 200 },
      ...SEND_SIZES.map((roles) => ({
        name: `send, ${roles} roles (${roles * 10} fields)`,
        path: '/v1/envelopes/from-template',
        init: json(rolesSendBody(sized.get(roles)!, roles)),
        expect: 201,
      })),
    ];
    const workerd = await measureWorkerd({
      bindings: { ...workerEnv, ALLOW_IN_PROCESS_LIMITS: 'false' },
      firstRequest: { name: gets.contacts, path: '/v1/contacts?per_page=1', init: get, expect: 200 },
      stackFloorRequest: { name: 'GET /v1/api-key', path: '/v1/api-key', init: get, expect: 200 },
      routes,
      coldRuns,
      warmRuns: cpuRuns,
      ...(opts['profile-dir'] ? { profileDir: opts['profile-dir'] } : {}),
    });
    return { roundTrips, workerd };
  } finally {
    globalThis.fetch = realFetch;
    sink.close();
    await standins?.close();
    await seeding.inProcessQueue.close();
    await database.close();
  }
}

function printEmbedded(e: Awaited<ReturnType<typeof embeddedThroughput>>) {
  console.log(`\nEmbedded server (npm start), concurrency ${e.concurrency}, ${e.keys} keys, ${e.rounds} alternating rounds, ${e.warmup} warm-up each`);
  console.log('                                      req/s    p50 ms   p90 ms   p99 ms   max ms   requests');
  for (const [name, s] of [
    [e.baseline_route, e.baseline],
    ['POST /v1/envelopes/from-template', e.send],
  ] as const) {
    console.log(`${name.padEnd(34)}${[s.per_second, s.p50_ms, s.p90_ms, s.p99_ms, s.max_ms, s.requests].map((v) => String(v).padStart(9)).join('')}`);
  }
  const r = e.send_vs_baseline;
  console.log(`send ÷ baseline: throughput ×${r.throughput}, p50 ×${r.p50}, p99 ×${r.p99}`);
}

type Production = Awaited<ReturnType<typeof productionRoundTrips>>;

function printRoundTrips(p: Production['roundTrips']) {
  console.log(`\nRound trips through the production adapters (Neon HTTP over ${p.database}, Upstash REST over Redis, QStash)`);
  for (const r of Object.values(p.requests)) {
    const counts = Object.entries(r.per_service).map(([s, c]) => `${s} ${c.requests} req / ${c.waves} wave${c.waves === 1 ? '' : 's'}`);
    console.log(`${r.label}: ${r.network_waves} network wave${r.network_waves === 1 ? '' : 's'} before the answer (${counts.join(', ')}); ${r.ms} ms`);
    for (const [i, w] of r.timeline.entries()) {
      const after = 'after_response' in w ? '  (after the answer)' : '';
      console.log(`  ${i + 1}. ${w.service.padEnd(6)} ${String(w.from_ms).padStart(6)}–${String(w.to_ms).padEnd(6)} ms  ${w.calls.join('; ')}${after}`);
    }
  }
}

function printWorkerd(w: Production['workerd']) {
  console.log(
    `\nThe deployed API Worker in workerd (${w.bundle.modules} module${w.bundle.modules === 1 ? '' : 's'}, ${w.bundle.raw_kib} KiB, ${w.bundle.gzip_kib} KiB gzip -9; the PDF Worker ${w.pdf_worker_bundle.raw_kib} KiB, ${w.pdf_worker_bundle.gzip_kib} KiB gzip -9; the application Worker ${w.app_worker_bundle.raw_kib} KiB, ${w.app_worker_bundle.gzip_kib} KiB gzip -9; the stack floor ${w.stack_floor_bundle.raw_kib} KiB, ${w.stack_floor_bundle.gzip_kib} KiB gzip -9)`,
  );
  const c = w.cold_start;
  const i = c.instructions;
  console.log(
    `cold start, process start to the first authenticated answer: the API Worker (${c.first_request}), the stack floor (${c.stack_floor_request}), a trivial Worker`,
  );
  if (i) {
    console.log(
      `  instructions (callgrind, medians of ${i.worker.runs}): ${i.worker.median_millions} M, ${i.stack_floor.median_millions} M, ${i.trivial_worker.median_millions} M; beyond the trivial Worker ${i.worker_beyond_trivial_millions} M against the stack floor's ${i.stack_floor_beyond_trivial_millions} M: ×${c.first_answer_vs_stack_floor} (totals ×${i.ratio_of_totals})`,
    );
  }
  console.log(
    `  CPU time (all threads, medians of ${c.worker.runs}): ${c.worker.median_ms} ms, ${c.stack_floor.median_ms} ms, ${c.trivial_worker.median_ms} ms; beyond the trivial Worker ${c.ours_ms} ms against the stack floor's ${c.stack_floor_ms} ms: ×${c.cpu_time_vs_stack_floor ?? '?'}; ours ×${c.ratio_to_trivial} the trivial Worker's`,
  );
  console.log(
    `  its first request under the profiler: ${c.first_request_profiled_js_ms} ms of JavaScript: ${c.first_request_hotspots.map((h) => `${h.name} ${h.ms}`).join(', ')}`,
  );
  console.log('CPU per request, warm (isolate thread, medians):');
  for (const [name, s] of Object.entries(w.cpu_per_request)) {
    const js = w.profiled_js_per_request[name]!;
    console.log(
      `  ${`${s.median_ms} ms`.padStart(10)}  ${name}  (min ${s.min_ms}, max ${s.max_ms}); profiled JavaScript ${js.median_ms} ms: ${js.hotspots
        .slice(0, 4)
        .map((h) => `${h.name} ${h.ms}`)
        .join(', ')}`,
    );
  }
}

type Aim = { aim: string; measured: string; holds: boolean };
/** Figures printed beside the aims that no longer hold or fail a run (docs/performance.md says why). */
type Information = { figure: string; measured: string };

function embeddedFigure(embedded: Awaited<ReturnType<typeof embeddedThroughput>>): Information {
  return { figure: 'embedded send ÷ a GET (p50)', measured: `×${embedded.send_vs_baseline.p50} (throughput ×${embedded.send_vs_baseline.throughput})` };
}

function printAims(aims: Aim[], information: Information[]) {
  if (aims.length) console.log('\nAims');
  for (const a of aims) console.log(`  ${a.holds ? 'holds        ' : 'DOES NOT HOLD'}  ${a.aim}: ${a.measured}`);
  console.log('\nFor information');
  for (const i of information) console.log(`  ${i.figure}: ${i.measured}`);
}

/** The cold start's aim: ours from a cold isolate to the first authenticated answer, against the stack floor's. */
const STACK_FLOOR_RATIO = 1.5;

/**
 * Every aim of docs/performance.md, judged in this run, and the figures kept for
 * information. The aims are ratios to a baseline of the same run or counts, which hold or not
 * whatever the shared machine's speed that day; absolute times do not, so they are information now.
 */
function judge(embedded: Awaited<ReturnType<typeof embeddedThroughput>>, p: Production): { aims: Aim[]; information: Information[] } {
  // The send's CPU is the CPU time of workerd's isolate thread (from /proc), what follows the answer
  // included: an upper bound of what Workers count, as it adds the runtime's own socket and HTTP work
  // and Miniflare's dispatch (about 1 ms for a trivial request). The profiler's busy samples, shown
  // beside it for where the time goes, are no measure of the total: in one run they came to 10.8 ms
  // for a send whose thread ran 4.5 ms in all (waits inside the runtime's native calls are sampled
  // as busy), and they swing from run to run.
  const js = p.workerd.profiled_js_per_request;
  const thread = p.workerd.cpu_per_request;
  const name = (roles: number) => `send, ${roles} roles (${roles * 10} fields)`;
  const sendCpu = (roles: number) => js[name(roles)]!.median_ms;
  const sendThread = (roles: number) => thread[name(roles)]!.median_ms;
  const trivialRequest = Object.entries(thread).find(([route]) => route.startsWith('trivial request'))?.[1].median_ms;
  const waves = (key: keyof Production['roundTrips']['requests']) => p.roundTrips.requests[key].network_waves;
  const cold = p.workerd.cold_start;
  const counted = cold.instructions
    ? `: ${cold.instructions.worker_beyond_trivial_millions} M beyond a trivial Worker against the stack floor's ${cold.instructions.stack_floor_beyond_trivial_millions} M`
    : '';
  const aims: Aim[] = [
    {
      aim: 'an authenticated GET in 1 network wave',
      measured: `contacts ${waves('get_contacts')}, templates ${waves('get_templates')}, template ${waves('get_template')}`,
      holds: p.roundTrips.aims.get_one_wave,
    },
    {
      aim: 'a send in 3 network waves, the queue publish after the answer',
      measured: `${waves('send')} (2 roles), ${waves('send_10_roles')} (10 roles)`,
      holds: p.roundTrips.aims.send_three_waves,
    },
    {
      aim: `cold start to the first authenticated answer ≤ ${STACK_FLOOR_RATIO}× the stack floor's`,
      measured: `×${cold.first_answer_vs_stack_floor ?? '?'} (${cold.method}${counted})`,
      holds: cold.first_answer_vs_stack_floor !== null && cold.first_answer_vs_stack_floor <= STACK_FLOOR_RATIO,
    },
    {
      aim: `each Worker's bundle ≤ ${p.workerd.bundle.budget_gzip_kib} KiB gzip`,
      measured: `API ${p.workerd.bundle.gzip_kib} KiB, PDF ${p.workerd.pdf_worker_bundle.gzip_kib} KiB, application ${p.workerd.app_worker_bundle.gzip_kib} KiB`,
      holds: [p.workerd.bundle, p.workerd.pdf_worker_bundle, p.workerd.app_worker_bundle].every((b) => b.gzip_kib <= b.budget_gzip_kib),
    },
  ];
  const information: Information[] = [
    {
      figure: 'send CPU in workerd (isolate thread, medians)',
      measured: `${sendThread(2)} ms (2 roles), ${sendThread(10)} ms (10), ${sendThread(50)} ms (50), a trivial request ${trivialRequest} ms; profiled JavaScript ${sendCpu(2)}, ${sendCpu(10)}, ${sendCpu(50)} ms`,
    },
    {
      figure: 'cold start beyond a trivial Worker (CPU time, all threads)',
      measured: `${cold.ours_ms} ms (×${cold.ratio_to_trivial} the trivial Worker's); the stack floor's ${cold.stack_floor_ms} ms`,
    },
    embeddedFigure(embedded),
  ];
  printAims(aims, information);
  return { aims, information };
}

/** Parts 2 and 3, and every aim judged. */
async function productionParts(embedded: Awaited<ReturnType<typeof embeddedThroughput>>, seed: Seed) {
  const production = await productionRoundTrips(seed);
  printRoundTrips(production.roundTrips);
  printWorkerd(production.workerd);
  const { aims, information } = judge(embedded, production);
  if (opts.json) {
    await writeFile(
      opts.json,
      `${JSON.stringify({ embedded, round_trips: production.roundTrips, workerd: production.workerd, aims, information }, null, 2)}\n`,
    );
  }
  if (!aims.every((a) => a.holds)) process.exitCode = 1;
}

const tmp = await mkdtemp(join(tmpdir(), 'bench-'));
try {
  const seed = await writeBenchSeed(tmp);
  const embedded = await embeddedThroughput(tmp, seed);
  printEmbedded(embedded);
  if (opts.only === 'embedded') {
    const information = [embeddedFigure(embedded)];
    printAims([], information);
    if (opts.json) await writeFile(opts.json, `${JSON.stringify({ embedded, aims: [], information }, null, 2)}\n`);
  } else {
    await productionParts(embedded, seed);
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}
