/**
 * The CPU time of a Worker running under Miniflare, shared by the benches that measure in workerd
 * (`npm run bench`, `npm run bench:pdf`): its threads' CPU time read from /proc (Linux only), the
 * instructions its process runs counted by valgrind's callgrind, and CPU profiles taken with the
 * DevTools Profiler through workerd's inspector, with where their time goes, an independent check
 * and the breakdown by package that tells what to work on.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire, type SourceMap } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Miniflare, fetch as miniflareFetch } from 'miniflare';

/** The workerd process Miniflare started (a child of this one); under valgrind, its tool's process. */
export function workerdPid(command = 'workerd'): number {
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))!;
        return comm!.startsWith(command) && Number(rest!.split(' ')[1]) === process.pid ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
  if (children.length !== 1) throw new Error(`Expected one ${command} child process, found ${children.length}.`);
  return children[0]!;
}

const run = promisify(execFile);

/** Whether valgrind's callgrind and its gdbserver client can be used here. */
export async function callgrindAvailable(): Promise<boolean> {
  return Promise.all([run('valgrind', ['--version']), run('vgdb', ['--help'])]).then(
    () => true,
    () => false,
  );
}

/**
 * Instructions counted by callgrind in a workerd process that Miniflare starts: unlike CPU time,
 * the count hardly moves with the load of the shared machine and not with its clock (runs of one
 * Worker agree within 0.3% when it is quiet, 1.5% under load), at the price of running tens of
 * times slower, seconds for a cold start. `count`
 * starts the process under callgrind through `launch`, lets `work` run, and reads the count from
 * the process's start to that moment, before Miniflare kills it (a killed process writes nothing).
 */
export async function callgrindWorkerd(dir: string) {
  // Where Miniflare finds workerd itself, so that the wrapper runs the same binary.
  const workerd: string = process.env.MINIFLARE_WORKERD_PATH ?? createRequire(createRequire(import.meta.url).resolve('miniflare'))('workerd').default;
  const wrapper = join(dir, 'workerd-under-callgrind.sh');
  // Miniflare spawns its runtime with this process's environment: the output file goes that way.
  const script = `#!/bin/sh\nexec valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$BENCH_CALLGRIND_OUT" --log-file="$BENCH_CALLGRIND_OUT.log" ${JSON.stringify(workerd)} "$@"\n`;
  await writeFile(wrapper, script, { mode: 0o755 });
  let runs = 0;
  return {
    /** The instructions counted, and callgrind's profile of them (for `callgrind_annotate` or KCachegrind). */
    async count(launch: () => Promise<Miniflare>, work: (mf: Miniflare) => Promise<void>): Promise<{ instructions: number; profile: string }> {
      const out = join(dir, `callgrind.${runs++}.out`);
      const saved = { path: process.env.MINIFLARE_WORKERD_PATH, out: process.env.BENCH_CALLGRIND_OUT };
      process.env.MINIFLARE_WORKERD_PATH = wrapper;
      process.env.BENCH_CALLGRIND_OUT = out;
      let mf: Miniflare;
      try {
        mf = await launch();
      } finally {
        for (const [name, value] of [
          ['MINIFLARE_WORKERD_PATH', saved.path],
          ['BENCH_CALLGRIND_OUT', saved.out],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
      try {
        await work(mf);
        // The process idles in epoll by now: vgdb interrupts it through ptrace to have it dump (and
        // would wait for ever where ptrace is not allowed).
        await run('vgdb', [`--pid=${workerdPid('callgrind')}`, 'dump'], { timeout: 60_000 });
        const profile = `${out}.1`; // callgrind numbers its dumps; the first covers everything since the start
        const instructions = Number(/^totals:\s+(\d+)/m.exec(await readFile(profile, 'utf8'))?.[1]);
        if (!Number.isSafeInteger(instructions)) throw new Error(`No instruction count in ${profile}`);
        return { instructions, profile };
      } finally {
        await mf.dispose();
      }
    },
  };
}

/** Nanoseconds each thread of the process has run (schedstat): the machine taking the core away does not add to it. */
export function threadNanos(pid: number): Map<string, number> {
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

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
export type Profile = { nodes: { id: number; callFrame: CallFrame }[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

/** The inspector of the Worker named `name` (Miniflare started with `inspectorPort: 0`). */
export async function openInspector(mf: Miniflare, name: string, samplingIntervalUs?: number) {
  const url = new URL(`/core:user:${name}`, await mf.getInspectorURL());
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
  if (samplingIntervalUs) await send('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
  return {
    /** A profile of whatever `work` makes the Worker do. */
    async profile(work: () => Promise<unknown>): Promise<Profile> {
      await send('Profiler.start');
      await work();
      return (await send<{ profile: Profile }>('Profiler.stop')).profile;
    },
    close: () => ws.close(),
  };
}

/** Each sample lasts until the next, as DevTools counts it. */
function eachSample(profile: Profile, fn: (nodeId: number, ms: number) => void) {
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  for (const [i, id] of profile.samples.entries()) fn(id, ((times[i + 1] ?? profile.endTime) - (times[i] ?? profile.endTime)) / 1000);
}

/**
 * As `npm run size` counts it: every sample but "(idle)" and "(program)" (workerd's own native work,
 * reported apart). A sample spans until the next one, so when the machine takes the core away the
 * wait lands in whatever was sampled; `bySamples` (samples × the usual interval) does not grow so.
 */
export function profileCpu(profile: Profile) {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const ms = { cpu: 0, program: 0, gc: 0, bySamples: 0, interval: 0 };
  const spans: number[] = [];
  let busy = 0;
  eachSample(profile, (id, span) => {
    const name = names.get(id);
    spans.push(span);
    if (name === '(program)') ms.program += span;
    else if (name !== '(idle)') {
      ms.cpu += span;
      busy++;
    }
    if (name === '(garbage collector)') ms.gc += span;
  });
  const sorted = [...spans].sort((a, b) => a - b);
  ms.interval = sorted.length ? sorted[sorted.length >> 1]! : 0;
  ms.bySamples = busy * ms.interval;
  return ms;
}

/**
 * Self time per package (and per file of ours), mean over the profiles, for frames of `bundleFile`
 * mapped by `map`. With `bySamples`, each sample counts as the profile's usual interval: for
 * profiles that include idle waits, whose spans would land on the sample before the wait.
 */
export function hotspots(profiles: Profile[], map: SourceMap, bundleFile: string, root: string, count = 10, bySamples = false) {
  const packageOf = (source: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ?? `(this repo) ${relative(root, resolve(root, source))}`;
  const totals = new Map<string, number>();
  for (const profile of profiles) {
    const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    const interval = profileCpu(profile).interval;
    eachSample(profile, (id, measured) => {
      const span = bySamples ? interval : measured;
      const frame = frames.get(id)!;
      if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
      const entry =
        frame.url.endsWith(bundleFile) && frame.lineNumber >= 0 ? (map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string }) : {};
      const key = entry.originalSource
        ? packageOf(entry.originalSource)
        : frame.functionName.startsWith('(')
          ? frame.functionName
          : `(native) ${frame.functionName || 'anonymous'}`;
      totals.set(key, (totals.get(key) ?? 0) + span / profiles.length);
    });
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms: Number(ms.toFixed(2)) }));
}
