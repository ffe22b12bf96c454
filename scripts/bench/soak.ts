/**
 * `npm run bench -- --soak [--seconds S] [--concurrency C] [--stack embedded|dev|both] [--json file]`
 *
 * Holds a mixed load on the service for S seconds (60 by default) on each stack — the embedded
 * server (`npm start`) and the Worker in workerd (`npm run dev` over the local PostgreSQL and Redis)
 * — as integrators and signers would make it, all on loopback: reads (templates, one template,
 * contacts), sends, signers opening their page and signing (each completion makes a sealed PDF),
 * and the webhook deliveries all of that causes, received and verified by a subscriber in this
 * process. It reports throughput, p50/p99 per kind, errors (anything but a 2xx or 3xx, beyond the
 * 402 and 429 the plan and the limits give by design), deliveries, and the server's memory (the RSS
 * of its process group) before and after. Exits 1 on any unexpected error. Bounded: the load stops
 * at its deadline, each request times out after 15 s, and deliveries are awaited 30 s at most.
 *
 * One file although long: the load, the subscriber that verifies the deliveries and the report
 * share the run's counters, and each stack is driven by the same loop.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { RespConnection } from '../../local/standins/resp-connection.js';
import { randomBase62 } from '../../src/lib/crypto.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { freePort, projectRoot, startServer } from '../../local/embedded-server.js';

const { values: opts } = parseArgs({
  options: {
    soak: { type: 'boolean' },
    seconds: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '8' },
    stack: { type: 'string', default: 'both' },
    json: { type: 'string' },
  },
});
const seconds = Number(opts.seconds);
const concurrency = Number(opts.concurrency);
if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) throw new Error('--seconds takes a whole number from 1 to 600');
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error('--concurrency takes a whole number from 1 to 64');
if (!['embedded', 'dev', 'both'].includes(opts.stack!)) throw new Error('--stack is embedded, dev or both');

const REQUEST_TIMEOUT_MS = 15_000;
const SETTLE_MS = 30_000;
// Each key is exchanged once over HTTP, within the per-address exchange limit (2 spare).
const KEYS = rateRules.tokenExchange.limit - 2;
const TEMPLATE_ID = '5a0a7e11-50a4-4c1d-9e2f-3b4c5d6e7f80';
const COMPANY_ID = '5a0a7e11-c0de-4a1b-8c2d-3e4f5a6b7c8d';
const ADMIN_TOKEN = `adm_soak_${randomBase62(24)}`;

type Kind = 'read' | 'send' | 'sign';
type Sample = { kind: Kind; ms: number; status: number };

/** A company of its own: a large quota, KEYS keys, and a one-signer template whose completion makes a sealed PDF. */
async function writeSeed(dir: string, runId: string) {
  const keys = Array.from({ length: KEYS }, () => `esk_test_soak_${randomBase62(32)}`);
  const seed = {
    companies: [
      {
        id: COMPANY_ID,
        name: 'Soak Ltd',
        api_signature_requests_per_period: 1_000_000,
        brand: { default_email_message: 'Please sign.' },
        users: [{ email: 'owner@soak.test', name: 'Sam Owner', role: 'owner', active: true, esign_seat: true }],
        api_keys: keys.map((key, i) => ({
          id: `key_soak_${runId}_${i}`,
          owner: 'owner@soak.test',
          key,
          scopes: ['templates:read', 'contacts:read', 'contacts:write', 'envelopes:send', 'webhooks:read', 'webhooks:write'],
        })),
        templates: [
          {
            id: TEMPLATE_ID,
            name: 'Soak agreement',
            email_subject: 'Please sign',
            email_message: null,
            expiry_days: 30,
            reminders: null,
            signing_order: 'parallel',
            share_signing_links: true,
            document: { generate: { title: 'Soak agreement', pages: 2 } },
            roles: [{ name: 'Signer', type: 'signer', order: 1, locked: false }],
            fields: [
              { role: 'Signer', type: 'signature', page: 2, x: 72, y: 600, width: 200, height: 40, required: true },
              { role: 'Signer', type: 'text', page: 1, x: 72, y: 200, width: 200, height: 20, required: false },
            ],
          },
        ],
        contacts: [],
      },
    ],
  };
  const path = join(dir, 'soak-seed.json');
  await writeFile(path, JSON.stringify(seed));
  return { path, keys };
}

/** Receives the deliveries and verifies each, as an integrator's endpoint would. */
async function startSubscriber() {
  const received = { verified: 0, refused: 0, documentReady: 0 };
  let webhook: Webhook | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = webhook!.verify(body, request.headers as Record<string, string>) as { type: string };
        received.verified++;
        if (event.type === 'envelope.document_ready') received.documentReady++;
        response.writeHead(204).end();
      } catch {
        received.refused++;
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    trust: (secret: string) => (webhook = new Webhook(secret)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The RSS of every process of the server's group (npm, tsx, node; for npm run dev, workerd and the stand-ins too), in MiB. */
function groupRssMiB(pgid: number): number {
  let kib = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return Math.round(kib / 1024);
}

type Running = {
  base: string;
  pgid: number;
  stop(): Promise<void>;
  /** The last of what the server printed, for a run with unexpected errors (npm run dev masks links' tokens in it). */
  printed?: () => string;
};

/** How much of a server's output is kept: its last lines before a failure say what happened. */
const KEPT_OUTPUT_CHARS = 12_000;

async function startEmbedded(dir: string, seedPath: string): Promise<Running> {
  const port = await freePort();
  const server = await startServer({ PORT: String(port), DATA_DIR: join(dir, 'embedded'), SEED_FILE: seedPath, ADMIN_TOKEN });
  return { base: `http://127.0.0.1:${port}`, pgid: server.child.pid!, stop: async () => void (await server.stop()) };
}

async function startDev(dir: string, seedPath: string): Promise<Running> {
  const postgres = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
  const name = `esign_soak_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: postgres });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const redis = new RespConnection(new URL(redisUrl));
  await redis.send([['FLUSHDB']]);
  await redis.close();
  const port = await freePort();
  const child = spawn('npm', ['run', '-s', 'dev'], {
    cwd: projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: join(dir, 'dev'),
      SEED_FILE: seedPath,
      ADMIN_TOKEN,
      DATABASE_URL: Object.assign(new URL(postgres), { pathname: `/${name}` }).toString(),
      REDIS_URL: redisUrl,
    },
  });
  let printed = '';
  // Every request's own line is left out, but for a server error: what is kept is what else the runtime said (a reload, a crash).
  const keep = (chunk: Buffer) => {
    const lines = chunk
      .toString()
      .split('\n')
      .filter((line) => !/^\[wrangler:info\] [A-Z]+ \/\S* \d{3}/.test(line) && !/^\[esign-api\] \{"request_id".*"status":[234]\d\d,/.test(line));
    // The start-up lines name the admin token, a key and an access token: none of them goes to a log.
    const masked = lines.join('\n').replace(/\b(?:adm|esk)_\w+|\beyJ[\w.-]+/g, '[secret]');
    printed = (printed + masked).slice(-KEPT_OUTPUT_CHARS);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async () => {
    const signal = (s: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, s);
      } catch {
        // The group is gone.
      }
    };
    signal('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    signal('SIGKILL');
    await admin(`drop database if exists ${name} with (force)`).catch(() => undefined);
  };
  try {
    await waitForListening(child, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base: `http://127.0.0.1:${port}`, pgid: child.pid!, stop, printed: () => printed };
}

function waitForListening(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm run dev did not start in time:\n${output.slice(-2000)}`)), timeoutMs);
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run dev exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

/** S seconds of mixed load on one running server. */
async function soak(stackName: string, running: Running, keys: string[]) {
  const { base } = running;
  const failures: string[] = [];
  const request = async (path: string, init: RequestInit = {}) => {
    const answer = await fetch(`${base}${path}`, { redirect: 'manual', ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await answer.text();
    // What a server error said, so that a failed run tells where to look (a link's token left out).
    if (answer.status >= 500)
      failures.push(`${init.method ?? 'GET'} ${path.replace(/\/sign\/[^/?]+/, '/sign/…')} ${answer.status}: ${text.slice(0, 160).trim()}`);
    return { status: answer.status, text };
  };
  const tokens: string[] = [];
  for (const key of keys) {
    const exchanged = await request('/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: key }),
    });
    if (exchanged.status !== 200) throw new Error(`${stackName}: the token exchange answered ${exchanged.status}: ${exchanged.text.slice(0, 200)}`);
    tokens.push((JSON.parse(exchanged.text) as { access_token: string }).access_token);
  }
  const subscriber = await startSubscriber();
  const subscribed = await request('/v1/webhooks', {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: subscriber.url,
      events: ['envelope.sent', 'envelope.viewed', 'envelope.signed', 'envelope.completed', 'envelope.document_ready'],
    }),
  });
  if (subscribed.status !== 201) throw new Error(`${stackName}: subscribing answered ${subscribed.status}: ${subscribed.text.slice(0, 200)}`);
  subscriber.trust((JSON.parse(subscribed.text) as { secret: string }).secret);

  // Keys in turn per kind, so that each stays within its limits as long as it can.
  const turn = { read: 0, send: 0 };
  const auth = (kind: keyof typeof turn) => ({ authorization: `Bearer ${tokens[turn[kind]++ % tokens.length]}`, 'content-type': 'application/json' });
  const links: string[] = [];
  let sent = 0;
  const reads = ['/v1/templates', `/v1/templates/${TEMPLATE_ID}`, '/v1/contacts?per_page=10'];

  const operations: Record<Kind, () => Promise<number>> = {
    read: async () => (await request(reads[turn.read % reads.length]!, { headers: auth('read') })).status,
    send: async () => {
      const n = sent++;
      const answer = await request('/v1/envelopes/from-template', {
        method: 'POST',
        headers: auth('send'),
        body: JSON.stringify({ template_id: TEMPLATE_ID, recipients: [{ role: 'Signer', name: 'Sid Signer', email: `signer.${n}@soak.test` }] }),
      });
      if (answer.status === 201) {
        const url = (JSON.parse(answer.text) as { signing_urls: { signing_url: string }[] }).signing_urls[0]!.signing_url;
        links.push(url.slice(url.indexOf('/sign/') + '/sign/'.length));
      }
      return answer.status;
    },
    sign: async () => {
      const token = links.shift()!;
      const shown = await request(`/sign/${token}`);
      if (shown.status !== 200) return shown.status;
      const form = new URLSearchParams({ form_token: /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!, consent: 'yes' });
      for (const [, name] of shown.text.matchAll(/name="(field\.[^"]+)"/g)) form.set(name!, 'Sid Signer');
      return (await request(`/sign/${token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base }, body: form }))
        .status;
    },
  };
  const pick = (): Kind => {
    const r = Math.random();
    if (r < 0.25 && links.length > 0) return 'sign';
    return r < 0.5 ? 'send' : 'read';
  };

  const memoryBefore = groupRssMiB(running.pgid);
  const samples: Sample[] = [];
  const deadline = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) {
      const kind = pick();
      const started = performance.now();
      const status = await operations[kind]().catch((err: unknown) => {
        failures.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
        return 0;
      });
      samples.push({ kind, ms: performance.now() - started, status });
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - startedAt;
  const memoryAfterLoad = groupRssMiB(running.pgid);

  // What the load set going (finished PDFs, deliveries) is given time to land.
  const signed = samples.filter((sample) => sample.kind === 'sign' && sample.status === 303).length;
  const settleBy = Date.now() + SETTLE_MS;
  while (Date.now() < settleBy && subscriber.received.documentReady < signed) await new Promise((resolve) => setTimeout(resolve, 250));
  const memoryAfter = groupRssMiB(running.pgid);
  await subscriber.close();

  const expected = (status: number) => status === 402 || status === 429;
  const ok = (status: number) => status >= 200 && status < 400;
  const percentile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 10) / 10 : null;
  };
  const byKind = Object.fromEntries(
    (['read', 'send', 'sign'] as Kind[]).map((kind) => {
      const mine = samples.filter((sample) => sample.kind === kind);
      const ms = mine.map((sample) => sample.ms);
      return [
        kind,
        { requests: mine.length, p50_ms: percentile(ms, 0.5), p99_ms: percentile(ms, 0.99), expected_402_429: mine.filter((s) => expected(s.status)).length },
      ];
    }),
  );
  const unexpected = samples.filter((sample) => !ok(sample.status) && !expected(sample.status));
  return {
    stack: stackName,
    seconds: Math.round(elapsedMs / 100) / 10,
    concurrency,
    operations: samples.length,
    per_second: Math.round((samples.length / (elapsedMs / 1000)) * 10) / 10,
    by_kind: byKind,
    envelopes_completed: signed,
    deliveries: { ...subscriber.received },
    errors: unexpected.length,
    error_statuses: [...new Set(unexpected.map((sample) => sample.status))],
    failures: failures.slice(0, 5),
    memory_mib: { before: memoryBefore, after_load: memoryAfterLoad, after_settling: memoryAfter },
  };
}

const dir = await mkdtemp(join(tmpdir(), 'esign-soak-'));
const results = [];
try {
  for (const stackName of opts.stack === 'both' ? ['embedded', 'dev'] : [opts.stack!]) {
    const seed = await writeSeed(dir, randomBase62(8));
    const running = stackName === 'embedded' ? await startEmbedded(dir, seed.path) : await startDev(dir, seed.path);
    try {
      process.stderr.write(`${stackName}: ${seconds} s of mixed load at concurrency ${concurrency}…\n`);
      const result = await soak(stackName, running, seed.keys);
      results.push({ ...result, ...(result.errors > 0 && running.printed ? { server_printed: running.printed() } : {}) });
    } finally {
      await running.stop();
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

for (const result of results) {
  console.log(`\n${result.stack}: ${result.operations} operations in ${result.seconds} s = ${result.per_second}/s at concurrency ${result.concurrency}`);
  for (const [kind, figures] of Object.entries(result.by_kind)) {
    console.log(
      `  ${kind.padEnd(5)} ${String(figures.requests).padStart(6)}   p50 ${String(figures.p50_ms).padStart(7)} ms   p99 ${String(figures.p99_ms).padStart(7)} ms   402/429: ${figures.expected_402_429}`,
    );
  }
  console.log(
    `  completed envelopes ${result.envelopes_completed}; deliveries verified ${result.deliveries.verified} (document_ready ${result.deliveries.documentReady}), refused ${result.deliveries.refused}`,
  );
  console.log(`  unexpected errors ${result.errors}${result.errors ? ` (statuses ${result.error_statuses.join(', ')}; ${result.failures.join(' | ')})` : ''}`);
  console.log(
    `  memory (RSS of the server's processes) ${result.memory_mib.before} MiB before, ${result.memory_mib.after_load} MiB after the load, ${result.memory_mib.after_settling} MiB once settled`,
  );
  if (result.server_printed) console.log(`  what the server printed last:\n${result.server_printed.replace(/^/gm, '  | ')}`);
}
if (opts.json) await writeFile(opts.json, `${JSON.stringify({ soak: results }, null, 2)}\n`);
if (results.some((result) => result.errors > 0 || result.deliveries.refused > 0)) process.exitCode = 1;
