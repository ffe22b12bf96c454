/**
 * `npm run bench:pdf [-- --runs N] [--cold N] [--json file]`: the CPU time of finishDocument inside
 * workerd, for a 10-page document with 20 fields (2 of them drawn signatures) and 3 recipients,
 * against a trivial request measured in the same run. Works offline; Linux only (it reads /proc).
 *
 * Inside workerd `performance.now()` stands still during synchronous work, so the time is taken from
 * outside. The main figure is the CPU time of workerd's isolate thread over each request, read from
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds the thread actually ran): unlike wall time or the
 * spans of a CPU profile, it does not grow when the shared machine takes the core away. The thread
 * that ran the most in a request is the one the isolate runs on; workerd's other threads (V8's
 * background GC and compilers) are reported as well. A second pass profiles the same requests with
 * the DevTools Profiler through workerd's inspector, as `npm run size` does for start-up: an
 * independent check of the figure, and where the time goes.
 *
 * The worker is bundled with esbuild (minified, as deploys are) and run by Miniflare with the
 * compatibility date and flags of wrangler.toml. Requests alternate between the subjects, so that a
 * noisy spell hits all of them alike; the first finishDocument of a fresh isolate (which evaluates
 * pdf-lib) is measured apart, in `--cold` fresh isolates.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { build } from 'esbuild';
import { Miniflare, fetch as miniflareFetch } from 'miniflare';
import { type FinishInput, type FinishedField, finishDocument } from '../src/pdf/finish-document.js';
import { generateDocument } from '../src/pdf/generate-document.js';
import { sha256Hex } from '../src/lib/crypto.js';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '15' }, cold: { type: 'string', default: '3' }, json: { type: 'string' } } });
const [runs, coldRuns] = [Number(opts.runs), Number(opts.cold)];
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(coldRuns) || coldRuns < 1) throw new Error('--runs and --cold take a positive whole number');
const root = resolve(import.meta.dirname, '..');

// ---- The input: what a finished 10-page envelope looks like -------------------------------------

/** A 600×200 RGBA PNG of a looping stroke on a transparent ground, as a signature pad's canvas exports it. */
function signaturePng(seed: number): string {
  const [width, height] = [600, 200];
  const rows = Buffer.alloc(height * (1 + width * 4));
  for (let t = 0; t < 1; t += 0.0002) {
    const x = 30 + t * 540;
    const y = 100 + 55 * Math.sin(t * (14 + seed) * Math.PI) * Math.cos(t * 3 * Math.PI + seed);
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
      const [px, py] = [Math.round(x + dx), Math.round(y + dy)];
      if (dx * dx + dy * dy <= 5) rows.set([20, 30, 80, 255], py * (1 + width * 4) + 1 + px * 4);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

async function benchInput(): Promise<FinishInput> {
  const original = await generateDocument('Commercial lease agreement', 10);
  const drawn = [signaturePng(1), signaturePng(2)];
  const kinds: [FinishedField['type'], string][] = [
    ['initials', 'AL'], ['initials', 'BT'], ['initials', 'AL'], ['initials', 'BT'], ['text', 'Unit 4B, 221 Harbour Road'],
    ['text', 'Twelve (12) months'], ['text', 'USD 4,250.00 per month'], ['text', 'Keys handed over at signing'], ['checkbox', 'true'],
    ['checkbox', 'false'], ['checkbox', 'true'], ['name', 'Ada Lessor'], ['name', 'Ben Tenant'], ['email', 'ben.tenant@example.test'],
    ['date_signed', '2026-11-03'], ['date_signed', '2026-11-04'], ['signature', 'Ada Lessor'], ['signature', 'Ben Tenant'],
    ['signature', drawn[0]!], ['signature', drawn[1]!],
  ];
  const fields: FinishedField[] = kinds.map(([type, value], i) => ({
    type,
    value,
    page: 1 + (i % 10),
    x: 72 + (i % 2) * 260,
    y: 200 + Math.floor(i / 10) * 120,
    width: type === 'checkbox' ? 14 : type === 'signature' ? 220 : 200,
    height: type === 'checkbox' ? 14 : type === 'signature' ? 50 : 22,
  }));
  const ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
  const at = (day: number, minute: number) => new Date(Date.UTC(2026, 10, day, 9, minute));
  const signer = (name: string, email: string, role: string, ip: string, day: number) => ({
    name, email, role, kind: 'signer' as const,
    events: [
      { what: 'Sent', at: at(2, 0), ip: null, userAgent: null },
      { what: 'Viewed', at: at(day, 1), ip, userAgent: ua },
      { what: 'Consented (esign-consent-2026-11)', at: at(day, 2), ip, userAgent: ua },
      { what: 'Signed', at: at(day, 4), ip, userAgent: ua },
    ],
  });
  return {
    original,
    envelopeId: 'env_01JC0BENCHPDF0000000000000',
    title: 'Commercial lease agreement',
    senderEmail: 'leasing@example.test',
    fields,
    recipients: [
      signer('Ada Lessor', 'ada.lessor@example.test', 'Landlord', '203.0.113.7', 3),
      signer('Ben Tenant', 'ben.tenant@example.test', 'Tenant', '198.51.100.23', 4),
      { name: 'Cy Counsel', email: 'cy@example.test', role: 'Counsel', kind: 'cc', events: [{ what: 'Sent', at: at(4, 5), ip: null, userAgent: null }] },
    ],
    consentVersion: 'esign-consent-2026-11',
    consentText: `${'You agree to receive records and to sign electronically, and may withdraw that consent or ask for a paper copy at any time. '.repeat(8)}\n\nYour device needs a current browser and a PDF reader.`,
    originalSha256: await sha256Hex(original),
    completedAt: at(4, 5),
  };
}

// ---- The Worker under test -------------------------------------------------------------------------

/** One Worker, three routes: the subject, a pdf-lib load and save of the same original (for scale), and nothing. */
const WORKER = `
import { finishDocument } from './src/pdf/finish-document.ts';
let input;
export default {
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === '/prepare') {
      const given = await request.json();
      input = { ...given, original: Uint8Array.from(atob(given.original), (c) => c.charCodeAt(0)), completedAt: new Date(given.completedAt),
        recipients: given.recipients.map((r) => ({ ...r, events: r.events.map((e) => ({ ...e, at: new Date(e.at) })) })) };
      return new Response('ok');
    }
    if (path === '/finish') {
      const { bytes, sha256 } = await finishDocument(input);
      return Response.json({ bytes: bytes.length, sha256 });
    }
    if (path === '/reference') {
      const { PDFDocument } = await import('pdf-lib');
      const saved = await (await PDFDocument.load(input.original, { updateMetadata: false })).save({ useObjectStreams: false });
      return Response.json({ bytes: saved.length });
    }
    return new Response('ok');
  },
};`;
const SUBJECTS = { baseline: '/baseline', reference: '/reference', finish: '/finish' } as const;
type Subject = keyof typeof SUBJECTS;

async function bundle() {
  const result = await build({
    stdin: { contents: WORKER, resolveDir: root, sourcefile: 'bench-pdf-worker.js', loader: 'js' },
    bundle: true, format: 'esm', platform: 'browser', conditions: ['workerd', 'worker', 'browser'], target: 'es2022',
    minify: true, sourcemap: 'external', outfile: join(root, 'bench-pdf-worker.js'), write: false, logLevel: 'error',
  });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))!.text;
  return { code: file('.js'), map: new SourceMap(JSON.parse(file('.js.map'))) };
}

const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
const compatibilityFlags = JSON.parse(/^compatibility_flags\s*=\s*(\[[^\]]*\])/m.exec(toml)?.[1] ?? '[]') as string[];

async function start(code: string, inspect: boolean) {
  const mf = new Miniflare({ name: 'bench', modules: true, script: code, scriptPath: 'bench-pdf-worker.js', compatibilityDate, compatibilityFlags, ...(inspect ? { inspectorPort: 0 } : {}) });
  await mf.ready;
  return mf;
}

// ---- Thread CPU time from /proc --------------------------------------------------------------------

/** The workerd process Miniflare started (a child of this one). */
function workerdPid(): number {
  const children = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat)!;
      return comm === 'workerd' && Number(rest!.split(' ')[1]) === process.pid ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
  if (children.length !== 1) throw new Error(`Expected one workerd child process, found ${children.length}.`);
  return children[0]!;
}

function threadNanos(pid: number): Map<string, number> {
  const times = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      times.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return times;
}

async function request(mf: Miniflare, path: string, init?: RequestInit): Promise<string> {
  const res = await mf.dispatchFetch(`http://bench.test${path}`, init as never);
  const body = await res.text();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${body}`);
  return body;
}

/** The request's CPU time in ms: on the isolate's thread (the busiest one) and on all of workerd's threads. */
async function threadCpu(mf: Miniflare, pid: number, path: string) {
  const before = threadNanos(pid);
  const body = await request(mf, path);
  const deltas = [...threadNanos(pid)].map(([tid, ns]) => (ns - (before.get(tid) ?? 0)) / 1e6);
  return { isolate: Math.max(...deltas), all: deltas.reduce((a, b) => a + b, 0), body };
}

// ---- CPU profiles through the inspector ------------------------------------------------------------

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Profile = { nodes: { id: number; callFrame: CallFrame }[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

async function inspector(mf: Miniflare) {
  const url = new URL('/core:user:bench', await mf.getInspectorURL());
  url.protocol = 'http:';
  const res = await miniflareFetch(url, { headers: { Upgrade: 'websocket' } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`No inspector WebSocket at ${url}`);
  ws.accept();
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((done) => {
      const id = nextId++;
      waiting.set(id, done as (result: unknown) => void);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  return {
    async profile(path: string): Promise<Profile> {
      await send('Profiler.start');
      await request(mf, path);
      return (await send<{ profile: Profile }>('Profiler.stop')).profile;
    },
    close: () => ws.close(),
  };
}

/** Each sample lasts until the next, as DevTools counts it. */
function eachSample(profile: Profile, fn: (nodeId: number, ms: number) => void) {
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  profile.samples.forEach((id, i) => fn(id, ((times[i + 1] ?? profile.endTime) - (times[i] ?? profile.endTime)) / 1000));
}

/**
 * As `npm run size` counts it: every sample but "(idle)" and "(program)" (workerd's own native work,
 * reported apart). A sample spans until the next one, so when the machine takes the core away the
 * wait lands in whatever was sampled; `bySamples` (samples × the usual interval) does not grow so.
 */
function profileCpu(profile: Profile) {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const ms = { cpu: 0, program: 0, gc: 0, bySamples: 0, interval: 0 };
  const spans: number[] = [];
  let busy = 0;
  eachSample(profile, (id, span) => {
    const name = names.get(id);
    spans.push(span);
    if (name === '(program)') ms.program += span;
    else if (name !== '(idle)') (ms.cpu += span), busy++;
    if (name === '(garbage collector)') ms.gc += span;
  });
  ms.interval = spans.length ? median(spans) : 0;
  ms.bySamples = busy * ms.interval;
  return ms;
}

const packageOf = (source: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ?? `(this repo) ${relative(root, resolve(root, source))}`;

/** Self time per package (and per file of ours), mean over the profiles. */
function hotspots(profiles: Profile[], map: SourceMap) {
  const totals = new Map<string, number>();
  for (const profile of profiles) {
    const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    eachSample(profile, (id, span) => {
      const frame = frames.get(id)!;
      if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
      const entry = frame.url.endsWith('bench-pdf-worker.js') && frame.lineNumber >= 0 ? (map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string }) : {};
      const key = entry.originalSource ? packageOf(entry.originalSource) : frame.functionName.startsWith('(') ? frame.functionName : `(native) ${frame.functionName || 'anonymous'}`;
      totals.set(key, (totals.get(key) ?? 0) + span / profiles.length);
    });
  }
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([name, ms]) => ({ name, ms: round(ms) }));
}

// ---- Figures ---------------------------------------------------------------------------------------

const round = (n: number) => Number(n.toFixed(2));
function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const summary = (values: number[]) => ({ median: round(median(values)), min: round(Math.min(...values)), max: round(Math.max(...values)), runs: values.map(round) });
/** Alternates the order of the subjects from one round to the next. */
const rounds = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? [...Object.keys(SUBJECTS)].reverse() : Object.keys(SUBJECTS)) as Subject[]);

const input = await benchInput();
const prepared = JSON.stringify({ ...input, original: Buffer.from(input.original).toString('base64') });
const worker = await bundle();

// 1. Cold: the first finishDocument of fresh isolates, which also evaluates pdf-lib's modules.
const cold: number[] = [];
let finished: { bytes: number; sha256: string } | undefined;
for (let i = 0; i < coldRuns; i++) {
  const mf = await start(worker.code, false);
  try {
    const pid = workerdPid();
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    const first = await threadCpu(mf, pid, SUBJECTS.finish);
    cold.push(first.isolate);
    finished = JSON.parse(first.body);
    process.stderr.write('c');
  } finally {
    await mf.dispose();
  }
}

// 2. Warm, by thread CPU time; one warm-up round first.
const thread = { baseline: [] as number[], reference: [] as number[], finish: [] as number[] };
const threadAll = { baseline: [] as number[], reference: [] as number[], finish: [] as number[] };
{
  const mf = await start(worker.code, false);
  try {
    const pid = workerdPid();
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    for (const subject of Object.keys(SUBJECTS) as Subject[]) await request(mf, SUBJECTS[subject]);
    for (const order of rounds(runs)) {
      for (const subject of order) {
        const { isolate, all, body } = await threadCpu(mf, pid, SUBJECTS[subject]);
        if (subject === 'finish' && JSON.parse(body).sha256 !== finished!.sha256) throw new Error('finishDocument gave different bytes from one run to the next');
        thread[subject].push(isolate);
        threadAll[subject].push(all);
      }
      process.stderr.write('.');
    }
  } finally {
    await mf.dispose();
  }
}

// 3. Warm, by CPU profile.
const profiles = { baseline: [] as Profile[], reference: [] as Profile[], finish: [] as Profile[] };
{
  const mf = await start(worker.code, true);
  const devtools = await inspector(mf);
  try {
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    for (const subject of Object.keys(SUBJECTS) as Subject[]) await request(mf, SUBJECTS[subject]);
    for (const order of rounds(runs)) {
      for (const subject of order) profiles[subject].push(await devtools.profile(SUBJECTS[subject]));
      process.stderr.write('p');
    }
  } finally {
    devtools.close();
    await mf.dispose();
  }
}
process.stderr.write('\n');

// pdf-lib and pako are plain JavaScript: the same input should give the same bytes on Node.
const inNode = await finishDocument(input);
const ms = { baseline: summary(thread.baseline), reference: summary(thread.reference), finish: summary(thread.finish) };
const profiled = Object.fromEntries(Object.entries(profiles).map(([s, ps]) => [s, summary(ps.map((p) => profileCpu(p).cpu))])) as Record<Subject, ReturnType<typeof summary>>;
const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : null);
const result = {
  workload: {
    originalPages: 10, originalBytes: input.original.length, fields: input.fields.length, drawnSignatures: 2, drawnSignatureSize: '600x200 RGBA',
    recipients: input.recipients.length, finishedBytes: finished!.bytes, sha256: finished!.sha256, sameBytesOnNode: inNode.sha256 === finished!.sha256,
  },
  machine: { cpus: cpus().length, loadAverage1m: round(loadavg()[0]!) },
  threadCpuMs: {
    note: "CPU time of workerd's isolate thread per request (/proc schedstat), warm isolate",
    ...ms,
    finishToBaseline: ratio(ms.finish.median, ms.baseline.median),
    finishToReference: ratio(ms.finish.median, ms.reference.median),
    finishAllThreads: summary(threadAll.finish),
    coldFirstFinish: summary(cold),
  },
  profileMs: {
    note: 'DevTools CPU profile through the inspector: samples other than (idle) and (program)',
    ...profiled,
    finishToBaseline: ratio(profiled.finish.median, profiled.baseline.median),
    finishBySamples: summary(profiles.finish.map((p) => profileCpu(p).bySamples)),
    finishGc: summary(profiles.finish.map((p) => profileCpu(p).gc)),
    sampleIntervalMs: round(median(profiles.finish.map((p) => profileCpu(p).interval))),
    finishHotspots: hotspots(profiles.finish, worker.map),
  },
};

const row = (label: string, s: { median: number; min: number; max: number }, extra = '') =>
  console.log(`${label.padEnd(44)}${`${s.median} ms`.padStart(11)}   (min ${s.min}, max ${s.max})${extra}`);
console.log(`\nfinishDocument in workerd: ${result.workload.originalPages}-page original (${(input.original.length / 1024).toFixed(1)} KiB), ${input.fields.length} fields (2 drawn signatures, 600x200), ${input.recipients.length} recipients -> ${(finished!.bytes / 1024).toFixed(1)} KiB`);
console.log(`sha256 ${finished!.sha256.slice(0, 16)}..., ${result.workload.sameBytesOnNode ? 'the same bytes as on Node' : 'NOT the bytes Node makes from the same input'}`);
console.log(`machine: ${result.machine.cpus} CPUs, load ${result.machine.loadAverage1m}; medians of ${runs} warm runs\n`);
console.log('Thread CPU time (isolate thread, /proc schedstat)');
row('  trivial request (baseline)', ms.baseline);
row('  pdf-lib load + save of the original (ref.)', ms.reference);
row('  finishDocument', ms.finish, `   ${result.threadCpuMs.finishToBaseline}x baseline, ${result.threadCpuMs.finishToReference}x ref.`);
row('  finishDocument, all workerd threads', result.threadCpuMs.finishAllThreads);
row(`  first finishDocument in a fresh isolate (${coldRuns})`, result.threadCpuMs.coldFirstFinish);
console.log('\nCPU profile (DevTools Profiler through the inspector)');
row('  trivial request (baseline)', profiled.baseline);
row('  pdf-lib load + save of the original (ref.)', profiled.reference);
const baselineNote = result.profileMs.finishToBaseline === null ? '   (the baseline stays below one sample)' : `   ${result.profileMs.finishToBaseline}x baseline`;
row('  finishDocument', profiled.finish, baselineNote);
row(`    samples x interval (${result.profileMs.sampleIntervalMs} ms)`, result.profileMs.finishBySamples);
row('    of which GC', result.profileMs.finishGc);
console.log('\nfinishDocument, self time by package (mean of the profiles)');
for (const { name, ms: t } of result.profileMs.finishHotspots) console.log(`  ${`${t} ms`.padStart(9)}  ${name}`);
if (opts.json) await writeFile(opts.json, `${JSON.stringify(result, null, 2)}\n`);
