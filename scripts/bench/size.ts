/**
 * `npm run size [-- --runs N] [--json file] [--no-fail]`: the deploy bundle's size and the Worker's
 * start-up time, against their budgets (500 KiB gzip, 50 ms). Works offline.
 *
 * Size: the Worker is built exactly as `wrangler deploy` builds it (a dry run with wrangler.toml).
 * Start-up: `wrangler check startup` profiles workerd evaluating the global scope, but it runs the
 * bundle without any bindings, so our Worker would stop at its configuration check and the profile
 * would cover only that (`--env-file` does not reach it). Each profiled bundle therefore gets a tiny
 * entry module that evaluates the real one inside `withEnv(<a complete dummy configuration>)`.
 * The machine is shared and noisy, so every figure is a median of runs, and a trivial Worker is
 * profiled the same way, interleaved, as a baseline. Exits 1 when the gzip size or the median
 * start-up time is over its budget, unless --no-fail.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { createSelfSignedSeal } from '../../src/pdf/seal-identity.js';
import { hotspots, median, packageOf, type Profile, startupTimes } from './startup-profile.js';

const BUDGET_GZIP_KIB = 500;
const BUDGET_STARTUP_MS = 50;
// Every variable the Worker requires, so that its start-up runs to the end.
const DUMMY_CONFIG: Record<string, string> = {
  DATABASE_URL: 'postgres://u:p@db.example.test/neondb',
  BASE_URL: 'https://esign.example.test',
  UPSTASH_REDIS_REST_URL: 'https://redis.example.test',
  UPSTASH_REDIS_REST_TOKEN: 't',
  QSTASH_TOKEN: 't',
  QSTASH_CURRENT_SIGNING_KEY: 'k1',
  QSTASH_NEXT_SIGNING_KEY: 'k2',
  TOKEN_SECRET: 'bench-size-dummy-secret-of-32-chars!',
  EMAIL_API_KEY: 're_x',
  EMAIL_FROM: 'Sign <sign@example.test>',
  WEBHOOK_SECRET_KEYS: 'test1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
};
// The seal's PEM is checked at start-up, so the dummy is a real identity, made for this run.
const seal = await createSelfSignedSeal('npm run size', new Date());
Object.assign(DUMMY_CONFIG, { SEAL_KEY_PEM: seal.keyPem, SEAL_CERT_PEM: seal.certPem });

const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, json: { type: 'string' }, 'no-fail': { type: 'boolean', default: false } },
});
const runs = Number(opts.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive whole number');
const root = resolve(import.meta.dirname, '../..');
const tmp = await mkdtemp(join(tmpdir(), 'bench-size-'));
const kib = (bytes: number) => bytes / 1024;

/** Runs wrangler offline: no telemetry, no fetch of the `Request.cf` data. */
async function wrangler(args: string[]): Promise<string> {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' };
  const run = promisify(execFile)('npx', ['wrangler', ...args], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
  const { stdout } = await run.catch((err: { stdout?: string; stderr?: string }) => {
    throw new Error(`wrangler ${args.join(' ')} failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  });
  return stdout;
}

type Metafile = { outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }> };

/** A dry-run deploy: the .js esbuild produced, the upload form `check startup` reads, and the metafile. */
async function build(config: string, outdir: string) {
  const metafile = join(outdir, 'meta.json');
  const stdout = await wrangler([
    'deploy',
    '--config',
    config,
    '--dry-run',
    '--outdir',
    outdir,
    '--outfile',
    join(outdir, 'worker.bundle'),
    '--metafile',
    metafile,
  ]);
  const meta = JSON.parse(await readFile(metafile, 'utf8')) as Metafile;
  // The metafile names the output relative to the directory wrangler ran in.
  const [js] = Object.entries(meta.outputs).find(([, o]) => o.entryPoint) ?? [];
  if (!js) throw new Error(`No entry point in ${metafile}`);
  return { stdout, bundle: join(outdir, 'worker.bundle'), js: resolve(root, js), meta };
}

function largestPackages(meta: Metafile, count: number) {
  const output = Object.values(meta.outputs).find((o) => o.entryPoint);
  const bytes = new Map<string, number>();
  for (const [path, input] of Object.entries(output?.inputs ?? {})) bytes.set(packageOf(path), (bytes.get(packageOf(path)) ?? 0) + input.bytesInOutput);
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, size]) => ({ name, bytes: size }));
}

type UploadMetadata = {
  main_module: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  bindings?: { name: string; type: string; text?: string }[];
};

/** Reads the multipart upload form that `deploy --outfile` writes. */
async function readUploadForm(bundle: string) {
  const raw = await readFile(bundle);
  const boundary = raw.subarray(2, raw.indexOf(10)).toString().trim(); // the first line is `--<boundary>`
  const form = await new Response(raw, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }).formData();
  return { form, metadata: JSON.parse(String(form.get('metadata'))) as UploadMetadata };
}

/**
 * Rewrites an upload form so that its main module is a shim evaluating the real one under the dummy
 * env. A failure is always printed; success only when `announce`, because console.log is not free
 * (workerd formats it with node:util and writes to a pipe) and would land in the profile.
 */
async function withStartupShim(bundle: string, target: string, announce: boolean) {
  const { form, metadata } = await readUploadForm(bundle);
  const vars = Object.fromEntries((metadata.bindings ?? []).filter((b) => b.type === 'plain_text').map((b) => [b.name, b.text]));
  // The API Worker's bindings, stood in for as wrangler.toml declares them (the PDF and application Workers' services,
  // the DOCUMENTS R2 bucket, which wrangler dev serves from a local bucket): at start-up the Worker
  // only checks that each is there and of its kind, and no request is answered here.
  const shim = `import { withEnv } from 'cloudflare:workers';
const notHere = async () => { throw new Error('not here'); };
const PDF_STANDIN = { pageSizes: async () => null, finish: notHere };
const APP_STANDIN = { fetch: notHere };
const DOCUMENTS_STANDIN = { head: async () => null, get: async () => null, put: notHere, delete: async () => {}, list: notHere, createMultipartUpload: notHere, resumeMultipartUpload: notHere };
try { await withEnv({ ...${JSON.stringify({ ...vars, ...DUMMY_CONFIG })}, PDF: PDF_STANDIN, APP: APP_STANDIN, DOCUMENTS: DOCUMENTS_STANDIN }, () => import('./${metadata.main_module}')); ${announce ? "console.log('bench-size: started');" : ''} }
catch (err) { console.log('bench-size: failed to start: ' + err); throw err; }`;
  const shimmed = new FormData();
  shimmed.set('metadata', JSON.stringify({ ...metadata, main_module: 'bench-startup.js' }));
  shimmed.set('bench-startup.js', new Blob([shim], { type: 'application/javascript+module' }), 'bench-startup.js');
  for (const [name, value] of form.entries()) if (name !== 'metadata') shimmed.append(name, value);
  await writeFile(target, Buffer.from(await new Response(shimmed).arrayBuffer()));
  return target;
}

/** A Worker that throws at start-up still yields a (short) profile, hence the check of what the shim printed. */
async function profileStartup(bundle: string, outfile: string, expect: 'started' | 'no failure'): Promise<Profile> {
  const stdout = await wrangler(['check', 'startup', '--worker', bundle, '--outfile', outfile]);
  const started = expect === 'started' ? stdout.includes('bench-size: started') : !stdout.includes('bench-size: failed');
  if (!started) throw new Error(`The Worker did not start:\n${stdout}`);
  return JSON.parse(await readFile(outfile, 'utf8')) as Profile;
}

const round = (n: number) => Number(n.toFixed(1));
const summary = (values: number[]) => ({
  median: round(median(values)),
  min: round(Math.min(...values)),
  max: round(Math.max(...values)),
  runs: values.map(round),
});

try {
  // 1. The bundle, as deployed.
  const ours = await build(join(root, 'wrangler.toml'), join(tmp, 'worker'));
  const js = await readFile(ours.js);
  const gzipBytes = gzipSync(js, { level: 9 }).length;
  const reported = /Total Upload:\s*([\d.]+) KiB \/ gzip:\s*([\d.]+) KiB/.exec(ours.stdout);
  const packages = largestPackages(ours.meta, 10);
  // The PDF Worker: its own bundle, under the same budget; it starts only when a PDF is made.
  const pdfWorker = await build(join(root, 'wrangler.pdf.toml'), join(tmp, 'pdf-worker'));
  const pdfGzipBytes = gzipSync(await readFile(pdfWorker.js), { level: 9 }).length;
  // The company application's Worker: its own bundle, under the same budget; it starts on a request under /app.
  const appWorker = await build(join(root, 'wrangler.app.toml'), join(tmp, 'app-worker'));
  const appGzipBytes = gzipSync(await readFile(appWorker.js), { level: 9 }).length;

  // 2. The baseline: a trivial Worker with our compatibility date and flags, so that the runtime's
  // share (nodejs_compat included) is the same on both sides.
  const { compatibility_date, compatibility_flags = [] } = (await readUploadForm(ours.bundle)).metadata;
  const baseDir = join(tmp, 'baseline');
  await mkdir(baseDir);
  await writeFile(join(baseDir, 'index.js'), "export default { fetch: () => new Response('ok') };\n");
  await writeFile(
    join(baseDir, 'wrangler.toml'),
    `name = "bench-baseline"\nmain = "index.js"\ncompatibility_date = "${compatibility_date}"\ncompatibility_flags = ${JSON.stringify(compatibility_flags)}\n`,
  );
  const baseline = await build(join(baseDir, 'wrangler.toml'), join(baseDir, 'out'));

  // 3. Start-up, interleaved so that a noisy spell hits both sides alike; the order alternates too.
  const subjects = {
    worker: { bundle: await withStartupShim(ours.bundle, join(tmp, 'worker.shimmed'), false), profiles: [] as Profile[] },
    baseline: { bundle: await withStartupShim(baseline.bundle, join(tmp, 'baseline.shimmed'), false), profiles: [] as Profile[] },
  };
  // One announced start each first: proves the shim works (the profiled runs print only failures), and warms the caches.
  for (const [name, { bundle }] of Object.entries({ worker: ours, baseline })) {
    await profileStartup(await withStartupShim(bundle, join(tmp, `${name}.announced`), true), join(tmp, `${name}-check.cpuprofile`), 'started');
  }
  for (let run = 0; run < runs; run++) {
    for (const [name, subject] of run % 2 ? Object.entries(subjects).reverse() : Object.entries(subjects)) {
      subject.profiles.push(await profileStartup(subject.bundle, join(tmp, `${name}-${run}.cpuprofile`), 'no failure'));
      process.stderr.write('.');
    }
  }
  const worker = subjects.worker.profiles.map(startupTimes);
  const workerMs = summary(worker.map((t) => t.cpu));
  const baseMs = summary(subjects.baseline.profiles.map((p) => startupTimes(p).cpu));
  // The trivial Worker's evaluation can stay below the ~1 ms sampling interval: then there is no ratio.
  const ratio = baseMs.median > 0 ? round(workerMs.median / baseMs.median) : null;
  const map = new SourceMap(JSON.parse(await readFile(`${ours.js}.map`, 'utf8')));
  const spots = hotspots(subjects.worker.profiles, ours.js, map, 8);

  const gcMs = summary(worker.map((t) => t.gc));
  const bySamplesMs = summary(worker.map((t) => t.bySamples));
  const gzipOk = [gzipBytes, pdfGzipBytes, appGzipBytes].every((bytes) => kib(bytes) <= BUDGET_GZIP_KIB);
  const startupOk = workerMs.median < BUDGET_STARTUP_MS;
  const row = (label: string, value: string, budget = '', verdict = '') =>
    console.log(`${label.padEnd(30)}${value.padStart(14)}  ${budget.padEnd(10)}${verdict}`);
  console.log();
  row('bundle raw', `${kib(js.length).toFixed(1)} KiB`);
  row('bundle gzip -9', `${kib(gzipBytes).toFixed(1)} KiB`, `${BUDGET_GZIP_KIB} KiB`, kib(gzipBytes) <= BUDGET_GZIP_KIB ? 'ok' : 'OVER BUDGET');
  row(
    'PDF Worker bundle gzip -9',
    `${kib(pdfGzipBytes).toFixed(1)} KiB`,
    `${BUDGET_GZIP_KIB} KiB`,
    kib(pdfGzipBytes) <= BUDGET_GZIP_KIB ? 'ok' : 'OVER BUDGET',
  );
  row(
    'application Worker gzip -9',
    `${kib(appGzipBytes).toFixed(1)} KiB`,
    `${BUDGET_GZIP_KIB} KiB`,
    kib(appGzipBytes) <= BUDGET_GZIP_KIB ? 'ok' : 'OVER BUDGET',
  );
  row('  wrangler: Total Upload', reported ? `${reported[1]} / ${reported[2]} KiB gzip` : '(not printed)');
  row(
    `start-up CPU, median of ${runs}`,
    `${workerMs.median} ms`,
    `${BUDGET_STARTUP_MS} ms`,
    `${startupOk ? 'ok' : 'OVER BUDGET'} (min ${workerMs.min}, max ${workerMs.max})`,
  );
  row('  of which GC, median', `${gcMs.median} ms`);
  row('  samples × interval, median', `${bySamplesMs.median} ms`, '', '(steadier under load, see startupTimes)');
  row('baseline Worker, median', `${baseMs.median} ms`, '', `(min ${baseMs.min}, max ${baseMs.max})`);
  row('ratio to the baseline', ratio === null ? 'n/a' : `${ratio}×`, '', ratio === null ? '(baseline below one sample)' : '');
  const list = (title: string, rows: string[][]) => console.log(`\n${title}\n${rows.map(([a, b]) => `  ${b!.padStart(11)}  ${a}`).join('\n')}`);
  list(
    'Largest packages in the bundle (minified)',
    packages.map((p) => [p.name, `${kib(p.bytes).toFixed(1)} KiB`]),
  );
  list(
    'Start-up, self time per package (mean of runs)',
    spots.byPackage.map((s) => [s.name, `${s.ms} ms`]),
  );
  list(
    'Start-up, time under our functions, callees included (mean of runs)',
    spots.byOwnFunction.map((s) => [s.name, `${s.ms} ms`]),
  );

  const wranglerReported = reported ? { totalKiB: Number(reported[1]), gzipKiB: Number(reported[2]) } : null;
  const result = {
    bundle: { rawBytes: js.length, gzipBytes, gzipLevel: 9, budgetGzipKiB: BUDGET_GZIP_KIB, wranglerReported, largestPackages: packages },
    pdfWorkerBundle: { gzipBytes: pdfGzipBytes, gzipLevel: 9, budgetGzipKiB: BUDGET_GZIP_KIB },
    appWorkerBundle: { gzipBytes: appGzipBytes, gzipLevel: 9, budgetGzipKiB: BUDGET_GZIP_KIB },
    startup: {
      budgetMs: BUDGET_STARTUP_MS,
      workerMs,
      baselineMs: baseMs,
      ratio,
      workerGcMs: gcMs,
      workerBySamplesMs: bySamplesMs,
      workerProgramMs: summary(worker.map((t) => t.program)),
      hotspots: spots,
    },
    withinBudget: gzipOk && startupOk,
  };
  if (opts.json) await writeFile(opts.json, `${JSON.stringify(result, null, 2)}\n`);
  if (!(gzipOk && startupOk) && !opts['no-fail']) process.exitCode = 1;
} finally {
  await rm(tmp, { recursive: true, force: true });
}
