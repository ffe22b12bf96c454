/**
 * `npm run bench:pdf [-- --runs N] [--cold N] [--json file]`: the CPU time of finishDocument inside
 * workerd, for a 10-page document with 20 fields (2 of them drawn signatures) and 3 recipients, and
 * of sealing that finished file (sealPdf: PAdES B-B with an RSA-2048 key; a time-stamp's network wait
 * is not CPU), against a trivial request measured in the same run: the PDF Worker's work, whose CPU
 * time the Workers plan bounds. Works offline; Linux only (it reads /proc).
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
 * pdf-lib) is measured apart, in `--cold` fresh isolates, whose first request is a trivial one.
 *
 * The same envelope with its names, title and values in other scripts (Polish, Arabic, Chinese,
 * Russian, Hindi, Thai, Japanese, Hebrew) is finished too (`intl`): the cost of shaping them and of
 * embedding their font subsets, against the Latin-only finish of the same run. The fonts come to
 * the Worker through a FONTS binding, as its static assets do in production.
 *
 * One file although long: the measurements share one workerd run, its inspector session and the
 * baseline request they are reported against.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { encode as encodePng } from 'fast-png';
import { Miniflare } from 'miniflare';
import { hotspots as hotspotsOf, openInspector, type Profile, profileCpu, threadNanos, workerdPid } from './workerd-profile.js';
import { type FinishInput, type FinishedField, finishDocument } from '../../src/pdf/finish-document.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { createSelfSignedSeal } from '../../src/pdf/seal-identity.js';
import { sha256Hex } from '../../src/lib/crypto.js';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '15' }, cold: { type: 'string', default: '3' }, json: { type: 'string' } } });
const [runs, coldRuns] = [Number(opts.runs), Number(opts.cold)];
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(coldRuns) || coldRuns < 1) throw new Error('--runs and --cold take a positive whole number');
const root = resolve(import.meta.dirname, '../..');

// ---- The input: what a finished 10-page envelope looks like -------------------------------------

/** A 600×200 RGBA PNG of a looping stroke on a transparent ground, as a signature pad's canvas exports it. */
function signaturePng(seed: number): string {
  const [width, height] = [600, 200];
  const pixels = new Uint8Array(height * width * 4);
  for (let t = 0; t < 1; t += 0.0002) {
    const x = 30 + t * 540;
    const y = 100 + 55 * Math.sin(t * (14 + seed) * Math.PI) * Math.cos(t * 3 * Math.PI + seed);
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const [px, py] = [Math.round(x + dx), Math.round(y + dy)];
        if (dx * dx + dy * dy <= 5) pixels.set([20, 30, 80, 255], (py * width + px) * 4);
      }
  }
  const png = encodePng({ width, height, data: pixels, channels: 4, depth: 8 });
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

async function benchInput(): Promise<Omit<FinishInput, 'fonts'> & { original: Uint8Array }> {
  const original = await generateDocument('Commercial lease agreement', 10, nodeFontSource());
  const drawn = [signaturePng(1), signaturePng(2)];
  const kinds: [FinishedField['type'], string][] = [
    ['initials', 'AL'],
    ['initials', 'BT'],
    ['initials', 'AL'],
    ['initials', 'BT'],
    ['text', 'Unit 4B, 221 Harbour Road'],
    ['text', 'Twelve (12) months'],
    ['text', 'USD 4,250.00 per month'],
    ['text', 'Keys handed over at signing'],
    ['checkbox', 'true'],
    ['checkbox', 'false'],
    ['checkbox', 'true'],
    ['name', 'Ada Lessor'],
    ['name', 'Ben Tenant'],
    ['email', 'ben.tenant@example.test'],
    ['date_signed', '2026-11-03'],
    ['date_signed', '2026-11-04'],
    ['signature', 'Ada Lessor'],
    ['signature', 'Ben Tenant'],
    ['signature', drawn[0]!],
    ['signature', drawn[1]!],
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
    name,
    email,
    role,
    kind: 'signer' as const,
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
    senderName: 'Acme Ltd',
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

/** The same envelope in other scripts: every name, the title and each typed value. */
function intlInput(latin: FinishInput): FinishInput {
  const values: Record<string, string> = {
    'Ada Lessor': 'Łukasz Żółć',
    'Ben Tenant': 'محمد عبد الله',
    AL: 'ŁŻ',
    BT: 'مع',
    'Unit 4B, 221 Harbour Road': '北京市朝阳区建国路 88 号',
    'Twelve (12) months': 'Двенадцать (12) месяцев',
    'USD 4,250.00 per month': '₹ 4,250 प्रति माह',
    'Keys handed over at signing': 'ส่งมอบกุญแจในวันลงนาม',
    'ben.tenant@example.test': 'ben.tenant@example.test',
  };
  const named = (name: string) => ({ 'Ada Lessor': 'Łukasz Żółć', 'Ben Tenant': 'محمد عبد الله', 'Cy Counsel': '山田 さくら' })[name] ?? name;
  return {
    ...latin,
    title: 'Договор аренды — عقد إيجار — 租赁合同',
    fields: latin.fields.map((field) => ({ ...field, value: field.value !== null && field.value in values ? values[field.value]! : field.value })),
    recipients: latin.recipients.map((r, i) => ({ ...r, name: named(r.name), role: ['מַשְׂכִּיר', 'किरायेदार', 'Counsel'][i]! })),
  };
}

// ---- The Worker under test -------------------------------------------------------------------------

/**
 * One Worker, its routes: the subjects (finishDocument, in Latin and in other scripts, and the seal),
 * a pdf-lib load and save of the same original (for scale), and nothing.
 */
const workerSource = `
import { finishDocument } from './src/pdf/finish-document.ts';
import { assetFontSource } from './src/pdf/fonts/asset-font-source.ts';
import { loadSealIdentity } from './src/pdf/seal-identity.ts';
import { sealPdf } from './src/pdf/seal-pdf.ts';
let input;
let intl;
let certified;
let fontSource;
// The fonts for the isolate's life, as the PDF Worker keeps them.
const fonts = (env) => (fontSource ??= assetFontSource(env.FONTS));
let identity;

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === '/prepare') {
      const { seal, intl: other, ...given } = await request.json();
      const revive = (given) => ({ ...given, original: Uint8Array.from(atob(given.original), (c) => c.charCodeAt(0)), completedAt: new Date(given.completedAt),
        recipients: given.recipients.map((r) => ({ ...r, events: r.events.map((e) => ({ ...e, at: new Date(e.at) })) })), fonts: fonts(env) });
      input = revive(given);
      intl = revive({ ...given, ...other });
      // The identity is loaded once per isolate, as sealIdentityOf keeps it.
      identity = await loadSealIdentity(seal);
      return new Response('ok');
    }
    if (path === '/seal') {
      const sealed = await sealPdf(certified, identity, input.completedAt);
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', sealed));
      return Response.json({ bytes: sealed.length, sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') });
    }
    if (path === '/finish') {
      const { appended, size, sha256 } = await finishDocument(input);
      // What the seal is given: the finished file with its certificate, the original then what
      // finishDocument appended (every run makes the same bytes).
      certified = new Uint8Array(size);
      certified.set(input.original);
      certified.set(appended, input.original.length);
      return Response.json({ bytes: size, sha256 });
    }
    if (path === '/intl') {
      const { size, sha256 } = await finishDocument(intl);
      return Response.json({ bytes: size, sha256 });
    }
    if (path === '/reference') {
      const { PDFDocument } = await import('pdf-lib');
      const saved = await (await PDFDocument.load(input.original, { updateMetadata: false })).save({ useObjectStreams: false });
      return Response.json({ bytes: saved.length });
    }
    return new Response('ok');
  },
};`;
const SUBJECT_NAMES = ['baseline', 'reference', 'finish', 'intl', 'seal'] as const;
type Subject = (typeof SUBJECT_NAMES)[number];

async function bundle(contents: string) {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'bench-pdf-worker.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    minify: true,
    sourcemap: 'external',
    outfile: join(root, 'bench-pdf-worker.js'),
    write: false,
    logLevel: 'error',
  });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))!.text;
  return { code: file('.js'), map: new SourceMap(JSON.parse(file('.js.map'))) };
}

const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
const compatibilityFlags = JSON.parse(/^compatibility_flags\s*=\s*(\[[^\]]*\])/m.exec(toml)?.[1] ?? '[]') as string[];

/** The PDF Worker's static assets (pdf-fonts/, filled by `postinstall`), answered from Node as a binding. */
async function serveFont(request: Request): Promise<Response> {
  const name = new URL(request.url).pathname.slice(1);
  if (!/^[\w.-]+$/.test(name)) return new Response('Not found', { status: 404 });
  return readFile(join(root, 'pdf-fonts', name)).then(
    (bytes) => new Response(bytes),
    () => new Response('Not found', { status: 404 }),
  );
}

async function start(code: string, inspect: boolean) {
  const mf = new Miniflare({
    name: 'bench',
    modules: true,
    script: code,
    scriptPath: 'bench-pdf-worker.js',
    compatibilityDate,
    compatibilityFlags,
    serviceBindings: { FONTS: serveFont },
    ...(inspect ? { inspectorPort: 0 } : {}),
  });
  await mf.ready;
  return mf;
}

// ---- Thread CPU time from /proc --------------------------------------------------------------------

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

// ---- Figures ---------------------------------------------------------------------------------------

const round = (n: number) => Number(n.toFixed(2));
function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const summary = (values: number[]) => ({
  median: round(median(values)),
  min: round(Math.min(...values)),
  max: round(Math.max(...values)),
  runs: values.map(round),
});
/** Alternates the order of the subjects from one round to the next. */
const rounds = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? [...SUBJECT_NAMES].reverse() : [...SUBJECT_NAMES]));
const bySubject = <T>(make: () => T) => Object.fromEntries(SUBJECT_NAMES.map((s) => [s, make()])) as Record<Subject, T>;

const input = { ...(await benchInput()), fonts: nodeFontSource() };
const intlGiven = intlInput(input);
// The seal: an RSA-2048 key and certificate, as the embedded server makes and as most CAs issue.
const seal = await createSelfSignedSeal('npm run bench:pdf', new Date());
const { fonts: _fonts, ...wire } = input;
const prepared = JSON.stringify({
  ...wire,
  original: Buffer.from(input.original).toString('base64'),
  seal,
  intl: { title: intlGiven.title, fields: intlGiven.fields, recipients: intlGiven.recipients },
});
const paths: Record<Subject, string> = { baseline: '/baseline', reference: '/reference', finish: '/finish', intl: '/intl', seal: '/seal' };
const worker = await bundle(workerSource);

// 1. Cold, in fresh isolates: a trivial first request, then the first finishDocument (which also
// evaluates pdf-lib's modules).
const cold = { baseline: [] as number[], finish: [] as number[], intl: [] as number[], seal: [] as number[] };
let finished: { bytes: number; sha256: string } | undefined;
let finishedIntl: { bytes: number; sha256: string } | undefined;
let sealed: { bytes: number; sha256: string } | undefined;
for (let i = 0; i < coldRuns; i++) {
  const mf = await start(worker.code, false);
  try {
    const pid = workerdPid();
    cold.baseline.push((await threadCpu(mf, pid, paths.baseline)).isolate);
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    const first = await threadCpu(mf, pid, paths.finish);
    cold.finish.push(first.isolate);
    finished = JSON.parse(first.body);
    // The first non-Latin finish of the isolate: its fonts are read (and kept) now.
    const firstIntl = await threadCpu(mf, pid, paths.intl);
    cold.intl.push(firstIntl.isolate);
    finishedIntl = JSON.parse(firstIntl.body);
    // The first seal of the isolate: /prepare has evaluated pdf-lib and pkijs already (loading the identity).
    const firstSeal = await threadCpu(mf, pid, paths.seal);
    cold.seal.push(firstSeal.isolate);
    sealed = JSON.parse(firstSeal.body);
  } finally {
    await mf.dispose();
  }
  process.stderr.write('c');
}

// 2. Warm, by thread CPU time; one warm-up round first.
const thread = bySubject(() => [] as number[]);
const threadAll = bySubject(() => [] as number[]);
{
  const mf = await start(worker.code, false);
  try {
    const pid = workerdPid();
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    for (const subject of SUBJECT_NAMES) await request(mf, paths[subject]);
    for (const order of rounds(runs)) {
      for (const subject of order) {
        const { isolate, all, body } = await threadCpu(mf, pid, paths[subject]);
        if (subject === 'finish' && JSON.parse(body).sha256 !== finished!.sha256)
          throw new Error('finishDocument gave different bytes from one run to the next');
        if (subject === 'intl' && JSON.parse(body).sha256 !== finishedIntl!.sha256)
          throw new Error('finishDocument (other scripts) gave different bytes from one run to the next');
        // RSA PKCS#1 v1.5 is deterministic: every seal of the same file is the same bytes.
        if (subject === 'seal' && JSON.parse(body).sha256 !== sealed!.sha256) throw new Error('sealPdf gave different bytes from one run to the next');
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
const profiles = bySubject(() => [] as Profile[]);
{
  const mf = await start(worker.code, true);
  const devtools = await openInspector(mf, 'bench');
  try {
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    for (const subject of SUBJECT_NAMES) await request(mf, paths[subject]);
    for (const order of rounds(runs)) {
      for (const subject of order) profiles[subject].push(await devtools.profile(() => request(mf, paths[subject])));
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
const intlInNode = await finishDocument(intlGiven);
const ms = Object.fromEntries(SUBJECT_NAMES.map((s) => [s, summary(thread[s])])) as Record<Subject, ReturnType<typeof summary>>;
const profiled = Object.fromEntries(Object.entries(profiles).map(([s, ps]) => [s, summary(ps.map((p) => profileCpu(p).cpu))])) as Record<
  Subject,
  ReturnType<typeof summary>
>;
const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : null);
const result = {
  workload: {
    originalPages: 10,
    originalBytes: input.original.length,
    fields: input.fields.length,
    drawnSignatures: 2,
    drawnSignatureSize: '600x200 RGBA',
    recipients: input.recipients.length,
    finishedBytes: finished!.bytes,
    sha256: finished!.sha256,
    sameBytesOnNode: inNode.sha256 === finished!.sha256,
    seal: { key: 'RSA-2048, SHA-256, PAdES B-B', sealedBytes: sealed!.bytes, sha256: sealed!.sha256 },
    intl: {
      scripts: 'Polish, Arabic, Chinese, Russian, Devanagari, Thai, Japanese, Hebrew',
      finishedBytes: finishedIntl!.bytes,
      sha256: finishedIntl!.sha256,
      sameBytesOnNode: intlInNode.sha256 === finishedIntl!.sha256,
      bytesToLatin: round(finishedIntl!.bytes / finished!.bytes),
    },
  },
  machine: { cpus: cpus().length, loadAverage1m: round(loadavg()[0]!) },
  threadCpuMs: {
    note: "CPU time of workerd's isolate thread per request (/proc schedstat), warm isolate",
    ...ms,
    finishToBaseline: ratio(ms.finish.median, ms.baseline.median),
    finishToReference: ratio(ms.finish.median, ms.reference.median),
    finishAllThreads: summary(threadAll.finish),
    intlToFinish: ratio(ms.intl.median, ms.finish.median),
    coldFirstIntl: summary(cold.intl),
    coldFirstFinish: summary(cold.finish),
    sealToBaseline: ratio(ms.seal.median, ms.baseline.median),
    sealToFinish: ratio(ms.seal.median, ms.finish.median),
    sealAllThreads: summary(threadAll.seal),
    coldFirstSeal: summary(cold.seal),
    coldFirstBaseline: summary(cold.baseline),
  },
  profileMs: {
    note: 'DevTools CPU profile through the inspector: samples other than (idle) and (program)',
    ...profiled,
    finishToBaseline: ratio(profiled.finish.median, profiled.baseline.median),
    finishBySamples: summary(profiles.finish.map((p) => profileCpu(p).bySamples)),
    finishGc: summary(profiles.finish.map((p) => profileCpu(p).gc)),
    sampleIntervalMs: round(median(profiles.finish.map((p) => profileCpu(p).interval))),
    finishHotspots: hotspotsOf(profiles.finish, worker.map, 'bench-pdf-worker.js', root),
    sealToBaseline: ratio(profiled.seal.median, profiled.baseline.median),
    sealHotspots: hotspotsOf(profiles.seal, worker.map, 'bench-pdf-worker.js', root),
  },
};

const row = (label: string, s: { median: number; min: number; max: number }, extra = '') =>
  console.log(`${label.padEnd(44)}${`${s.median} ms`.padStart(11)}   (min ${s.min}, max ${s.max})${extra}`);
console.log(
  `\nfinishDocument in workerd: ${result.workload.originalPages}-page original (${(input.original.length / 1024).toFixed(1)} KiB), ${input.fields.length} fields (2 drawn signatures, 600x200), ${input.recipients.length} recipients -> ${(finished!.bytes / 1024).toFixed(1)} KiB`,
);
console.log(
  `sha256 ${finished!.sha256.slice(0, 16)}..., ${result.workload.sameBytesOnNode ? 'the same bytes as on Node' : 'NOT the bytes Node makes from the same input'}`,
);
console.log(
  `the same in other scripts -> ${(finishedIntl!.bytes / 1024).toFixed(1)} KiB (${result.workload.intl.bytesToLatin}x), ${result.workload.intl.sameBytesOnNode ? 'the same bytes as on Node' : 'NOT the bytes Node makes'}`,
);
console.log(`machine: ${result.machine.cpus} CPUs, load ${result.machine.loadAverage1m}; medians of ${runs} warm runs\n`);
console.log('Thread CPU time (isolate thread, /proc schedstat)');
row('  trivial request (baseline)', ms.baseline);
row('  pdf-lib load + save of the original (ref.)', ms.reference);
row('  finishDocument', ms.finish, `   ${result.threadCpuMs.finishToBaseline}x baseline, ${result.threadCpuMs.finishToReference}x ref.`);
row('  finishDocument, all workerd threads', result.threadCpuMs.finishAllThreads);
row('  finishDocument, names in other scripts', ms.intl, `   ${result.threadCpuMs.intlToFinish}x the Latin-only finishDocument`);
row(`  first of those in a fresh isolate (${coldRuns})`, result.threadCpuMs.coldFirstIntl);
row(`  first finishDocument in a fresh isolate (${coldRuns})`, result.threadCpuMs.coldFirstFinish);
row('  seal (sealPdf of the finished file)', ms.seal, `   ${result.threadCpuMs.sealToBaseline}x baseline, ${result.threadCpuMs.sealToFinish}x finishDocument`);
row('  seal, all workerd threads', result.threadCpuMs.sealAllThreads);
row(`  first seal in a fresh isolate (${coldRuns})`, result.threadCpuMs.coldFirstSeal);
row(`  first request of a fresh isolate: trivial (${coldRuns})`, result.threadCpuMs.coldFirstBaseline);
console.log('\nCPU profile (DevTools Profiler through the inspector)');
row('  trivial request (baseline)', profiled.baseline);
row('  pdf-lib load + save of the original (ref.)', profiled.reference);
const belowOneSample = '   (the baseline stays below one sample)';
row('  finishDocument', profiled.finish, result.profileMs.finishToBaseline === null ? belowOneSample : `   ${result.profileMs.finishToBaseline}x baseline`);
row(`    samples x interval (${result.profileMs.sampleIntervalMs} ms)`, result.profileMs.finishBySamples);
row('    of which GC', result.profileMs.finishGc);
row('  seal', profiled.seal, result.profileMs.sealToBaseline === null ? belowOneSample : `   ${result.profileMs.sealToBaseline}x baseline`);
console.log('\nfinishDocument, self time by package (mean of the profiles)');
for (const { name, ms: t } of result.profileMs.finishHotspots) console.log(`  ${`${t} ms`.padStart(9)}  ${name}`);
console.log('\nseal, self time by package (mean of the profiles)');
for (const { name, ms: t } of result.profileMs.sealHotspots.slice(0, 6)) console.log(`  ${`${t} ms`.padStart(9)}  ${name}`);
if (opts.json) await writeFile(opts.json, `${JSON.stringify(result, null, 2)}\n`);
