/**
 * The Worker as deployed, inside workerd (part 3 of `npm run bench`): its bundle size, its cold
 * start against the stack floor's (stack-floor/ here) and a trivial Worker's, and the CPU time of
 * each route measured against a trivial request, all in the same run.
 *
 * The bundle is built as `wrangler deploy` builds it (a dry run of wrangler.toml) and run by
 * Miniflare with the compatibility date and flags of wrangler.toml, its [vars], and bindings that
 * aim the production adapters at the stand-ins of part 2 (Neon HTTP, Upstash REST, QStash). The
 * stack floor is built the same way from a configuration written beside it, and gets the same
 * bindings, so it reaches the same stand-ins.
 *
 * - Cold start: a fresh workerd process per run, from its start to the answer of its first request
 *   (an authenticated GET), for the API Worker, the stack floor and the trivial Worker in turn.
 *   What a Worker costs from a cold isolate is its process's count less the trivial Worker's (which
 *   holds workerd's own start and Miniflare's plumbing); the aim compares the API Worker's to the
 *   stack floor's. Counted in instructions under callgrind (see workerd-profile.ts), and in CPU
 *   time too, for information (CPU time instead where valgrind is missing).
 * - Per route, warm: the isolate's thread (the one that ran the most) over each request and what
 *   follows its answer (the outbox relay of a send), rounds alternating the routes.
 * CPU time is read from /proc/<pid>/task/<tid>/schedstat: nanoseconds each of workerd's threads
 * actually ran, which does not grow when the shared machine takes the core away (wall time does).
 * Linux only (it reads /proc).
 *
 * One file although long: the cold starts and the per-route figures share one build, one set of
 * bindings and one reading of workerd's threads; apart, each would restate them.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { SourceMap } from 'node:module';
import { Miniflare } from 'miniflare';
import { writeStackFloorConfig } from './stack-floor/wrangler-config.js';
import { callgrindAvailable, callgrindWorkerd, hotspots, openInspector, type Profile, profileCpu, threadNanos, workerdPid } from './workerd-profile.js';

const root = resolve(import.meta.dirname, '../..');
export const BUDGET_GZIP_KIB = 500;

export type WorkerdRoute = { name: string; path: string; init?: () => RequestInit; expect: number };

const round = (n: number) => Math.round(n * 100) / 100;
export function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const summary = (values: number[]) => ({
  median_ms: round(median(values)),
  min_ms: round(Math.min(...values)),
  max_ms: round(Math.max(...values)),
  runs: values.length,
});

/** A deploy bundle: wrangler's dry run of a Worker's configuration (relative to the project, or absolute), as `npm run size` makes it. */
async function buildDeployBundle(dir: string, config = 'wrangler.toml') {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' };
  await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--config', config, '--outdir', dir], {
    cwd: root,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => {
    throw new Error(`wrangler deploy --dry-run --config ${config} failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  });
  const files = (await readdir(dir)).filter((file) => file.endsWith('.js'));
  const modules = await Promise.all(files.map(async (file) => ({ path: join(dir, file), contents: await readFile(join(dir, file)) })));
  const raw = modules.reduce((n, m) => n + m.contents.length, 0);
  const gzip = modules.reduce((n, m) => n + gzipSync(m.contents, { level: 9 }).length, 0);
  // The entry keeps the name of the configuration's `main`; other modules are chunks it imports.
  const main = /^main\s*=\s*"(?:.*\/)?([^/"]+)\.ts"/m.exec(readFileSync(resolve(root, config), 'utf8'))?.[1] ?? 'index';
  const entry = `${main}.js`;
  if (!files.includes(entry)) throw new Error(`No ${entry} among the bundle's modules (${files.join(', ')})`);
  return { dir, main: join(dir, entry), files, rawKiB: round(raw / 1024), gzipKiB: round(gzip / 1024) };
}

const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
const compatibilityFlags = JSON.parse(/^compatibility_flags\s*=\s*(\[[^\]]*\])/m.exec(toml)?.[1] ?? '[]') as string[];
/** wrangler.toml's [vars] (plain `NAME = "value"` lines). */
const tomlVars = Object.fromEntries(
  [...(/^\[vars\]\n([\s\S]*?)(?:^\[|$(?![\s\S]))/m.exec(toml)?.[1] ?? '').matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]),
);

type Subject = { script: string } | { dir: string; main: string; files: string[] };

/**
 * The API Worker's `PDF` binding, in every run: a stand-in of the PDF Worker's entry point, so that
 * the process holds the same second Worker whether it runs ours or the trivial one. In production the
 * PDF Worker is an isolate of its own, started when a PDF is made; no route measured here calls it.
 */
const pdfStandin = {
  name: 'esign-pdf',
  modules: true,
  script:
    "import { WorkerEntrypoint } from 'cloudflare:workers'; export class PdfMaker extends WorkerEntrypoint { pageSizes() { return null; } } export default { fetch: () => new Response(null, { status: 404 }) };",
  compatibilityDate,
};

/** The API Worker's `APP` binding, likewise: the application's Worker stood in for; no route measured here is under /app. */
const appStandin = { name: 'esign-app', modules: true, script: 'export default { fetch: () => new Response(null, { status: 404 }) };', compatibilityDate };

async function start(subject: Subject, bindings: Record<string, string>, inspect = false): Promise<Miniflare> {
  const base = {
    name: 'bench',
    compatibilityDate,
    compatibilityFlags,
    bindings: { ...tomlVars, ...bindings },
    serviceBindings: { PDF: { name: 'esign-pdf', entrypoint: 'PdfMaker' }, APP: 'esign-app' },
    // The document store's bucket, as wrangler.toml binds it: the Worker refuses to start without it.
    r2Buckets: { DOCUMENTS: 'esign-documents' },
  };
  const options = (worker: object) => ({ workers: [worker, pdfStandin, appStandin], ...(inspect ? { inspectorPort: 0 } : {}) });
  if ('script' in subject) {
    const mf = new Miniflare(options({ ...base, modules: true, script: subject.script }));
    await mf.ready;
    return mf;
  }
  // Every module of the bundle, listed, the entry first (Miniflare cannot follow computed imports).
  const ordered = [subject.main, ...subject.files.map((file) => join(subject.dir, file)).filter((path) => path !== subject.main)];
  const modules = ordered.map((path) => ({ type: 'ESModule' as const, path, contents: readFileSync(path) }));
  const mf = new Miniflare(options({ ...base, modules, modulesRoot: subject.dir }));
  await mf.ready;
  return mf;
}

const totalMs = (times: Map<string, number>) => [...times.values()].reduce((a, b) => a + b, 0) / 1e6;

async function ask(mf: Miniflare, route: WorkerdRoute): Promise<void> {
  const res = await mf.dispatchFetch(`http://bench.test${route.path}`, (route.init?.() ?? {}) as never);
  const body = await res.text();
  if (res.status !== route.expect) throw new Error(`${route.name} answered ${res.status} in workerd: ${body.slice(0, 300)}`);
}

/** What follows an answer (the outbox relay) runs within this; an idle thread gains no CPU meanwhile. */
const AFTER_ANSWER_MS = 150;
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function measureWorkerd(options: {
  bindings: Record<string, string>;
  firstRequest: WorkerdRoute;
  /** The same authenticated read, as the stack floor serves it. */
  stackFloorRequest: WorkerdRoute;
  routes: WorkerdRoute[];
  coldRuns: number;
  warmRuns: number;
  /** Where to write the first request's profile (a .cpuprofile DevTools opens) and the cold starts' callgrind profiles, if anywhere. */
  profileDir?: string;
}) {
  const tmp = await mkdtemp(join(tmpdir(), 'bench-workerd-'));
  if (options.profileDir) await mkdir(options.profileDir, { recursive: true });
  try {
    const bundle = await buildDeployBundle(join(tmp, 'worker'));
    const pdfBundle = await buildDeployBundle(join(tmp, 'pdf-worker'), 'wrangler.pdf.toml');
    const appBundle = await buildDeployBundle(join(tmp, 'app-worker'), 'wrangler.app.toml');
    await mkdir(join(tmp, 'stack-floor-config'));
    const floor = await buildDeployBundle(join(tmp, 'stack-floor'), await writeStackFloorConfig(join(tmp, 'stack-floor-config')));
    const trivial = { script: "export default { fetch: () => new Response('ok') };" };
    const trivialFirst: WorkerdRoute = { name: 'GET / (trivial Worker)', path: '/', expect: 200 };
    const subjects = {
      worker: { subject: bundle, first: options.firstRequest },
      stack_floor: { subject: floor, first: options.stackFloorRequest },
      trivial: { subject: trivial, first: trivialFirst },
    } satisfies Record<string, { subject: Subject; first: WorkerdRoute }>;
    type Which = keyof typeof subjects;
    const which = Object.keys(subjects) as Which[];
    // Each run starts with the next of the three, so that none always follows the same one.
    const turn = (run: number) => [...which.slice(run % which.length), ...which.slice(0, run % which.length)];

    // 1. Cold starts in CPU time, the three Workers interleaved.
    const cold: Record<Which, number[]> = { worker: [], stack_floor: [], trivial: [] };
    for (let run = 0; run < options.coldRuns; run++) {
      for (const name of turn(run)) {
        const mf = await start(subjects[name].subject, options.bindings);
        try {
          await ask(mf, subjects[name].first);
          cold[name].push(totalMs(threadNanos(workerdPid())));
        } finally {
          await mf.dispose();
        }
        process.stderr.write('c');
      }
    }

    // The same cold starts counted in instructions, which the machine's load does not move.
    const counter = (await callgrindAvailable()) ? await callgrindWorkerd(tmp) : undefined;
    const counted: Record<Which, number[]> = { worker: [], stack_floor: [], trivial: [] };
    for (let run = 0; counter && run < options.coldRuns; run++) {
      for (const name of turn(run)) {
        const { instructions, profile } = await counter.count(
          () => start(subjects[name].subject, options.bindings),
          (mf) => ask(mf, subjects[name].first),
        );
        counted[name].push(instructions);
        if (options.profileDir && run === 0) await copyFile(profile, join(options.profileDir, `callgrind-cold-start-${name}.out`));
        process.stderr.write('i');
      }
    }

    // Where the first request's time goes: a cold isolate under the profiler (not counted above).
    const firstProfile = await (async () => {
      const mf = await start(bundle, options.bindings, true);
      const devtools = await openInspector(mf, 'bench', 100);
      try {
        return await devtools.profile(() => ask(mf, options.firstRequest));
      } finally {
        devtools.close();
        await mf.dispose();
      }
    })();
    if (options.profileDir) await writeFile(join(options.profileDir, 'workerd-first-request.cpuprofile'), JSON.stringify(firstProfile));

    // 2. Each route, warm, on one isolate: the isolate's thread per request.
    const routes = [...options.routes, { ...trivialFirst, name: 'trivial request (same Worker, unknown path)', path: '/bench-trivial', expect: 404 }];
    const cpu = new Map(routes.map((route) => [route.name, [] as number[]]));
    const mf = await start(bundle, options.bindings);
    try {
      const pid = workerdPid();
      for (const route of routes) await ask(mf, route); // warm-up
      for (let run = 0; run < options.warmRuns; run++) {
        for (const route of run % 2 ? [...routes].reverse() : routes) {
          await pause(AFTER_ANSWER_MS);
          const before = threadNanos(pid);
          await ask(mf, route);
          await pause(AFTER_ANSWER_MS);
          const deltas = [...threadNanos(pid)].map(([tid, ns]) => (ns - (before.get(tid) ?? 0)) / 1e6);
          cpu.get(route.name)!.push(Math.max(...deltas));
        }
        process.stderr.write('w');
      }
    } finally {
      await mf.dispose();
    }

    // 3. The same requests under the DevTools profiler: the JavaScript our isolate ran, and where.
    const profiles = new Map(routes.map((route) => [route.name, [] as Profile[]]));
    const inspected = await start(bundle, options.bindings, true);
    const devtools = await openInspector(inspected, 'bench', 100);
    try {
      for (const route of routes) await ask(inspected, route);
      for (let run = 0; run < options.warmRuns; run++) {
        for (const route of run % 2 ? [...routes].reverse() : routes) {
          await pause(AFTER_ANSWER_MS);
          profiles.get(route.name)!.push(
            await devtools.profile(async () => {
              await ask(inspected, route);
              await pause(AFTER_ANSWER_MS);
            }),
          );
        }
        process.stderr.write('p');
      }
    } finally {
      devtools.close();
      await inspected.dispose();
    }
    process.stderr.write('\n');
    const map = new SourceMap(JSON.parse(await readFile(`${bundle.main}.map`, 'utf8')));
    const file = bundle.main.split('/').at(-1)!;

    const coldWorker = median(cold.worker);
    const coldTrivial = median(cold.trivial);
    const coldFloor = median(cold.stack_floor);
    // What each Worker adds to the trivial one's process, and ours against the floor's.
    const versus = (ours: number, floor: number, base: number) => (floor > base ? round((ours - base) / (floor - base)) : null);
    const millions = (values: number[]) => ({
      median_millions: round(median(values) / 1e6),
      min_millions: round(Math.min(...values) / 1e6),
      max_millions: round(Math.max(...values) / 1e6),
      runs: values.length,
    });
    const instructions = counter
      ? {
          worker: millions(counted.worker),
          stack_floor: millions(counted.stack_floor),
          trivial_worker: millions(counted.trivial),
          worker_beyond_trivial_millions: round((median(counted.worker) - median(counted.trivial)) / 1e6),
          stack_floor_beyond_trivial_millions: round((median(counted.stack_floor) - median(counted.trivial)) / 1e6),
          ratio_of_totals: round(median(counted.worker) / median(counted.stack_floor)),
        }
      : null;
    const cpuVersusFloor = versus(coldWorker, coldFloor, coldTrivial);
    return {
      bundle: { raw_kib: bundle.rawKiB, gzip_kib: bundle.gzipKiB, modules: bundle.files.length, budget_gzip_kib: BUDGET_GZIP_KIB },
      pdf_worker_bundle: { raw_kib: pdfBundle.rawKiB, gzip_kib: pdfBundle.gzipKiB, modules: pdfBundle.files.length, budget_gzip_kib: BUDGET_GZIP_KIB },
      app_worker_bundle: { raw_kib: appBundle.rawKiB, gzip_kib: appBundle.gzipKiB, modules: appBundle.files.length, budget_gzip_kib: BUDGET_GZIP_KIB },
      stack_floor_bundle: { raw_kib: floor.rawKiB, gzip_kib: floor.gzipKiB, modules: floor.files.length },
      cold_start: {
        first_request: options.firstRequest.name,
        stack_floor_request: options.stackFloorRequest.name,
        /** The aim's figure: from a cold isolate to the first authenticated answer, ours ÷ the stack floor's, each beyond the trivial Worker. */
        first_answer_vs_stack_floor: counter ? versus(median(counted.worker), median(counted.stack_floor), median(counted.trivial)) : cpuVersusFloor,
        method: counter ? ('instructions, callgrind' as const) : ('CPU time, valgrind missing' as const),
        instructions,
        worker: summary(cold.worker),
        stack_floor: summary(cold.stack_floor),
        trivial_worker: summary(cold.trivial),
        ours_ms: round(coldWorker - coldTrivial),
        stack_floor_ms: round(coldFloor - coldTrivial),
        cpu_time_vs_stack_floor: cpuVersusFloor,
        ratio_to_trivial: round(coldWorker / coldTrivial),
        first_request_profiled_js_ms: round(profileCpu(firstProfile).bySamples),
        first_request_hotspots: hotspots([firstProfile], map, file, root, 12, true),
      },
      cpu_per_request: Object.fromEntries([...cpu].map(([name, values]) => [name, summary(values)])),
      profiled_js_per_request: Object.fromEntries(
        [...profiles].map(([name, list]) => [
          name,
          { ...summary(list.map((p) => profileCpu(p).bySamples)), hotspots: hotspots(list, map, file, root, 8, true) },
        ]),
      ),
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
