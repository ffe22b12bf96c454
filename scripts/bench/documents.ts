/**
 * `npm run bench:documents [-- --sizes 1,10,25,50] [--stacks start,dev] [--interval-ms 20]
 *   [--finish-timeout 180] [--json file]`: whether each isolate holds a large document within the
 * Workers' 128 MB. For generated PDFs of each size (real pages, each with an uncompressed image of
 * noise: documents-pdf.ts), every step a document takes (documents-flow.ts: the template import,
 * a send to two signers, the signing page's document whole and in ranges, two signatures, the
 * finish, the webhook with the PDF inline, the download link) on `npm start` and on `npm run dev`
 * (workerd with the production adapters over the stand-ins: documents-stacks.ts). The aim: each
 * isolate's peak at most 96 MB up to 25 MiB (50 MiB the stretch); exit 1 when it does not hold.
 *
 * What the figure counts: per isolate (Node's main thread and its PDF thread; workerd's API Worker
 * and PDF Worker), the JS heap in use (Runtime.getHeapUsage's usedSize) plus the backing stores of
 * its ArrayBuffers, typed arrays and Buffers: workerd's V8 answers them as backingStorageSize; Node
 * 20's does not, so there it is process.memoryUsage().arrayBuffers, evaluated in that isolate. The
 * fields each V8 answered are listed in the JSON. Every isolate is read every --interval-ms over
 * the inspector. On Node a full collection runs in each isolate before each step that starts on its
 * own, so a step's peak is what it added to what was still held; workerd never answers that call,
 * so there a peak also holds the garbage earlier steps left (an upper side of the same figure).
 * workerd keeps one inspector session at a time: on `npm run dev` the steps run once per Worker,
 * each run reading one, and the two are reported together.
 * What it misses: a peak between two readings (the reading waits while an isolate runs a long
 * synchronous stretch; whatever it holds at the end of that stretch is still read); memory outside
 * V8's two counts: WebAssembly memories (PGlite's database, on `npm start`), native buffers of the
 * runtime itself (streams in flight inside workerd, sockets, Node's zlib), and the heap that V8
 * reserved but does not use. Cloudflare counts an isolate's whole memory; this is its lower bound.
 * workerd enforces no limit locally, so an exceeded limit shows here as a peak over 128 MB, not as
 * an error 1102; a step that fails (a 5xx, a job that never finishes) is reported with its reason
 * and the run goes on with the next size and stack.
 * The finished PDF is checked where the tools are installed: pdfsig's verdict, qpdf --check, and
 * whether the original PDF is its first bytes (an incremental update).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { documentFlow, webhookReceiver } from './documents-flow.js';
import { sampleIsolates } from './documents-memory.js';
import { documentOfSize, MiB } from './documents-pdf.js';
import { type Checks, growthTable, idleFigures, mergePasses, judge, printGrowthAndAims, printTable, type RunFigures, stepFigures } from './documents-report.js';
import { type RunningStack, startDev, startEmbedded } from './documents-stacks.js';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,10,25,50' },
    stacks: { type: 'string', default: 'start,dev' },
    'interval-ms': { type: 'string', default: '20' },
    'finish-timeout': { type: 'string', default: '180' },
    json: { type: 'string' },
  },
});
const sizes = opts.sizes.split(',').map(Number);
const intervalMs = Number(opts['interval-ms']);
const finishTimeoutMs = Number(opts['finish-timeout']) * 1000;
const stacks = {
  start: { label: 'npm start', start: startEmbedded },
  dev: { label: 'npm run dev', start: startDev },
} as const;
const chosen = opts.stacks.split(',') as (keyof typeof stacks)[];
if (!sizes.every((n) => Number.isFinite(n) && n > 0)) throw new Error('--sizes takes sizes in MiB, separated by commas');
if (!chosen.every((s) => s in stacks)) throw new Error('--stacks takes start, dev or both');
if (!(intervalMs >= 5) || !(finishTimeoutMs > 0)) throw new Error('--interval-ms takes at least 5, --finish-timeout seconds');

const ADMIN_TOKEN = `adm_bench_documents_${process.pid}_0123456789`;
const run = promisify(execFile);

/** Each check that the machine's tools allow; a missing tool says so. */
async function checkFinished(dir: string, original: Uint8Array, finished: Uint8Array): Promise<Checks> {
  const file = join(dir, 'finished.pdf');
  await writeFile(file, finished);
  const tool = async (command: string, args: string[], verdict: (out: string) => string) =>
    run(command, args, { maxBuffer: 16 * MiB }).then(
      ({ stdout }) => verdict(stdout),
      (err: NodeJS.ErrnoException & { stdout?: string; stderr?: string }) =>
        err.code === 'ENOENT' ? 'not installed' : `fails: ${(err.stderr || err.stdout || err.message).trim().split('\n').slice(0, 2).join(' ')}`,
    );
  const pdfsig = await tool('pdfsig', [file], (out) => {
    const verdicts = [...out.matchAll(/Signature Validation: (.*)/g)].map((m) => m[1]);
    return verdicts.length ? verdicts.join('; ') : 'no signature';
  });
  const qpdf = await tool('qpdf', ['--check', file], () => 'passes');
  const prefix = finished.length >= original.length && Buffer.from(finished.subarray(0, original.length)).equals(Buffer.from(original));
  return { pdfsig, qpdf, original_prefix: prefix ? 'yes' : 'no' };
}

const runs: RunFigures[] = [];
const fields: Record<string, string[]> = {};
const tmp = await mkdtemp(join(tmpdir(), 'bench-documents-'));
const receiver = await webhookReceiver();
try {
  const documents = new Map<number, Uint8Array>();
  for (const size of sizes) documents.set(size, await documentOfSize(`Bench document of ${size} MiB`, Math.round(size * MiB)));
  for (const key of chosen) {
    const stack = stacks[key];
    let server: RunningStack;
    try {
      process.stderr.write(`Starting ${stack.label}…\n`);
      server = await stack.start(join(tmp, key), ADMIN_TOKEN);
    } catch (err) {
      for (const size of sizes)
        runs.push({
          stack: stack.label,
          size_mib: size,
          bytes: documents.get(size)!.length,
          idle_mb: {},
          steps: [],
          error: `did not start: ${(err as Error).message.slice(0, 400)}`,
        });
      continue;
    }
    const sampler = sampleIsolates(server.isolates, intervalMs);
    try {
      for (const size of sizes) {
        const document = documents.get(size)!;
        let merged: RunFigures | undefined;
        for (const [i, pass] of server.passes.entries()) {
          process.stderr.write(`${stack.label}, ${size} MiB, reading ${pass}…\n`);
          await server.focus(pass);
          await sampler.collect();
          await new Promise((resolve) => setTimeout(resolve, intervalMs * 5)); // a few readings at rest
          const idle = idleFigures(
            sampler.samples,
            performance.now(),
            server.isolates().map((isolate) => isolate.name),
          );
          let figures: RunFigures;
          try {
            const label = `${key}-${size}mib-${i}-${process.pid}`.replace(/\./g, '_');
            const flow = await documentFlow({
              base: server.base,
              adminToken: ADMIN_TOKEN,
              document,
              label,
              receiver,
              settle: sampler.collect,
              finishTimeoutMs,
            });
            // The readings asked while the last step ran are answered after it: they belong to it.
            await new Promise((resolve) => setTimeout(resolve, intervalMs * 5));
            const names = server.isolates().map((isolate) => isolate.name);
            figures = { stack: stack.label, size_mib: size, bytes: document.length, idle_mb: idle, steps: stepFigures(flow.steps, sampler.samples, names) };
            if (flow.finished) figures.checks = await checkFinished(tmp, document, flow.finished);
          } catch (err) {
            figures = { stack: stack.label, size_mib: size, bytes: document.length, idle_mb: idle, steps: [], error: (err as Error).message.slice(0, 400) };
          }
          for (const isolate of server.isolates()) fields[`${stack.label}: ${isolate.name}`] = isolate.fields;
          merged = merged ? mergePasses(merged, figures) : figures;
        }
        runs.push(merged!);
      }
    } finally {
      sampler.stop();
      for (const [name, reason] of sampler.failures) process.stderr.write(`${stack.label}: reading ${name} failed: ${reason}\n`);
      await server.stop();
    }
  }
} finally {
  await receiver.close();
  await rm(tmp, { recursive: true, force: true });
}

printTable(runs, intervalMs);
console.log('\nWhat each isolate answered (Runtime.getHeapUsage, and where evaluated, process.memoryUsage())');
for (const [name, list] of Object.entries(fields)) console.log(`  ${name}: ${list.join(', ') || 'no reading'}`);
const aims = judge(runs);
printGrowthAndAims(runs, aims);
if (opts.json)
  await writeFile(opts.json, `${JSON.stringify({ interval_ms: intervalMs, v8_fields: fields, runs, growth_mb_per_mib: growthTable(runs), aims }, null, 2)}\n`);
if (aims.some((a) => !a.holds && !a.stretch)) process.exitCode = 1;
