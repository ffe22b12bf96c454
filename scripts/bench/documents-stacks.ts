/**
 * The two stacks the document bench runs on, each started as its user starts it, with a way into
 * each of its isolates' inspectors:
 * - `npm start`: the embedded server as a process (local/embedded-server.ts), its Node run with
 *   `--inspect` on a free port; its PDF thread is a worker thread of the same inspector.
 * - `npm run dev`: scripts/dev.ts itself (wrangler dev over the stand-ins of Neon, Upstash and
 *   QStash). wrangler's Miniflare starts workerd with an inspector address of its own; it is read
 *   from workerd's command line, and each Worker is a target there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { RespConnection } from '../../local/standins/resp-connection.js';
import { freePort, projectRoot, spawnServer, userEnvironment, waitForListening } from '../../local/embedded-server.js';
import { type Isolate, nodeIsolates, workerdIsolates } from './documents-memory.js';

/**
 * A running stack; `passes` are the isolates read together, one run of the steps each (workerd
 * answers one inspector session at a time), `focus` turns the reading to one of them.
 */
export type RunningStack = {
  base: string;
  isolates: () => Isolate[];
  passes: string[];
  focus: (pass: string) => Promise<void>;
  stop: () => Promise<void>;
  output: () => string;
};

/** `npm start`, as `npx tsx src/entries/node.ts` runs it, with Node's inspector on a port of its own choosing. */
export async function startEmbedded(dataDir: string, adminToken: string): Promise<RunningStack> {
  const port = await freePort();
  const command = ['node', '--inspect=127.0.0.1:0', '--import', 'tsx', 'src/entries/node.ts'];
  const run = spawnServer({ PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_REQUESTS: 'false' }, command);
  try {
    await waitForListening(run);
    const url = /Debugger listening on (ws:\/\/\S+)/.exec(run.stderr())?.[1];
    if (!url) throw new Error(`No inspector URL in the server's output:\n${run.stderr()}`);
    const inspector = await nodeIsolates(url);
    return {
      base: `http://127.0.0.1:${port}`,
      isolates: inspector.list,
      passes: ['every isolate'],
      focus: async () => undefined,
      output: () => run.stdout() + run.stderr(),
      stop: async () => {
        inspector.close();
        await run.stop();
      },
    };
  } catch (err) {
    run.kill();
    throw err;
  }
}

/** Whether a Redis answers at `url`: the dev stack then uses Upstash's REST stand-in over it. */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Every process descended from `pid` (wrangler runs in a process group of its own, so the group would not do). */
function descendants(pid: number): { pid: number; comm: string }[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(readFileSync(`/proc/${d}/stat`, 'utf8'))!;
        return [{ pid: Number(d), comm: comm!, parent: Number(rest!.split(' ')[1]) }];
      } catch {
        return [];
      }
    });
  const found: { pid: number; comm: string }[] = [];
  const walk = (parent: number) => {
    for (const p of all.filter((q) => q.parent === parent)) {
      found.push(p);
      walk(p.pid);
    }
  };
  walk(pid);
  return found;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group has gone.
  }
}

/** A Redis database of the bench's own, on the machine's Redis. */
const BENCH_REDIS = 'redis://127.0.0.1:6379/12';

/** `npm run dev` in a folder of its own (PGlite there; Upstash over REDIS_URL's Redis when one answers). */
export async function startDev(dataDir: string, adminToken: string): Promise<RunningStack> {
  const port = await freePort();
  const redisUrl = process.env.REDIS_URL ?? BENCH_REDIS;
  const env: NodeJS.ProcessEnv = { ...userEnvironment(), PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, QSTASH_RETRY_SCALE: '0.05' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  if (await reachable(redisUrl)) {
    env.REDIS_URL = redisUrl;
    // The bench's own database starts empty: limits counted by an earlier run (the token exchange's
    // 20 in 15 minutes per address) would refuse this one's exchanges. A REDIS_URL given is left as it is.
    if (redisUrl === BENCH_REDIS) {
      const redis = new RespConnection(new URL(redisUrl));
      await redis.send([['FLUSHDB']]);
      await redis.close();
    }
  }
  // wrangler dev gives workerd no inspector of its own: Miniflare runs a wrapper that adds one.
  env.MINIFLARE_WORKERD_PATH = await workerdWithInspector(dataDir);
  const child = spawn('npm', ['run', '-s', 'dev'], { cwd: projectRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const closed = new Promise((resolve) => child.once('close', resolve));
  const stop = async () => {
    // SIGTERM to npm and the dev script, which stops wrangler's own group; SIGKILL after a bound.
    signalGroup(child, 'SIGTERM');
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
    clearTimeout(timer);
    signalGroup(child, 'SIGKILL');
  };
  try {
    const deadline = Date.now() + 180_000;
    while (!/listening on/.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm run dev did not start:\n${output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const origin = await inspectorOf(
      descendants(child.pid!).filter((p) => p.comm.startsWith('workerd')),
      workerNames()[0]!,
    );
    const inspector = await workerdIsolates(origin, workerNames());
    return {
      base: `http://127.0.0.1:${port}`,
      isolates: inspector.list,
      passes: workerNames(),
      focus: inspector.focus,
      output: () => output,
      stop: async () => {
        inspector.close();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * A script in workerd's place that runs it with an inspector on a free port (workerd's `serve`
 * takes `--inspector-addr`); Miniflare runs whatever MINIFLARE_WORKERD_PATH names, with its
 * arguments. wrangler dev runs two workerd processes (its proxy, and the Workers): each gets one.
 */
async function workerdWithInspector(dir: string): Promise<string> {
  const workerd: string = createRequire(createRequire(import.meta.url).resolve('miniflare'))('workerd').default;
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'workerd-with-inspector.sh');
  await writeFile(path, `#!/bin/sh\ncommand=$1\nshift\nexec ${JSON.stringify(workerd)} "$command" --inspector-addr=127.0.0.1:0 "$@"\n`, { mode: 0o755 });
  return path;
}

/** The TCP ports a process listens on, from /proc (its sockets' inodes among the listening ones). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]].filter((inode) => inode !== undefined);
      } catch {
        return [];
      }
    }),
  );
  return ['tcp', 'tcp6'].flatMap((table) =>
    readFileSync(`/proc/${pid}/net/${table}`, 'utf8')
      .split('\n')
      .slice(1)
      .flatMap((line) => {
        const columns = line.trim().split(/\s+/);
        return columns[3] === '0A' && inodes.has(columns[9]!) ? [Number.parseInt(columns[1]!.split(':')[1]!, 16)] : [];
      }),
  );
}

/** The inspector (of the workerd processes given) that lists the Worker `name`. */
async function inspectorOf(processes: { pid: number }[], name: string): Promise<string> {
  for (const { pid } of processes) {
    for (const port of listeningPorts(pid)) {
      const origin = `http://127.0.0.1:${port}`;
      const targets = await fetch(`${origin}/json/list`, { signal: AbortSignal.timeout(2000) })
        .then((answer) => answer.json() as Promise<{ id?: string }[]>)
        .catch(() => undefined);
      if (Array.isArray(targets) && targets.some((t) => t.id?.endsWith(name))) return origin;
    }
  }
  throw new Error(`No workerd inspector lists ${name} (workerd processes: ${processes.map((p) => p.pid).join(', ') || 'none'})`);
}

/** The two Workers' names, from their configurations. */
function workerNames(): string[] {
  return ['wrangler.toml', 'wrangler.pdf.toml'].map(
    (file) => JSON.parse(/^name\s*=\s*(".*")$/m.exec(readFileSync(`${projectRoot}/${file}`, 'utf8'))![1]!) as string,
  );
}
