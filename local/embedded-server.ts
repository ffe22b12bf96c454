/**
 * The embedded server as a user runs it: `npx tsx src/entries/node.ts` in the project folder, with
 * the environment of "Configuration" in docs/operations.md, read from its output until it says it
 * is listening. The suites that start it as a process and the benchmarks (scripts/bench/) share it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The variables the server reads; the caller's own environment must not leak any of them in. */
const serverVariables = ['PORT', 'DATA_DIR', 'SEED_FILE', 'ADMIN_TOKEN', 'BASE_URL', 'TOKEN_SECRET', 'DATABASE_URL', 'REDIS_URL', 'LOG_REQUESTS'];

/** How a user starts the embedded server; `npm run dev` is the other command. */
const npmStart = ['npx', 'tsx', 'src/entries/node.ts'];

export type ServerRun = {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process and everything it started have ended. */
  ended: Promise<number | null>;
  /** SIGTERM to the process group, as a terminal's kill would send; resolves when all have ended. */
  stop(): Promise<number | null>;
  /** SIGKILL to whatever of the group is still there; for cleanup. */
  kill(): void;
  /** Whether `stop` had to end the group with SIGKILL, the server not having ended on SIGTERM. */
  killedByStop(): boolean;
};

export { freePort } from './free-port.js';

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The environment a user's shell would have: without what Vite and vitest add (BASE_URL='/', MODE…), when a test starts it. */
export function userEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'NODE_ENV', 'TEST']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
  return env;
}

/**
 * Starts the server. `npx` runs it through npm and a shell, which do not pass SIGTERM on to the
 * server, so the run gets its own process group and is signalled as a whole, as a terminal does.
 */
export function spawnServer(env: Record<string, string>, command = npmStart): ServerRun {
  const childEnv = userEnvironment();
  for (const name of serverVariables) delete childEnv[name];
  Object.assign(childEnv, env);

  const child = spawn(command[0]!, command.slice(1), { cwd: projectRoot, env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const pid = child.pid!;

  // 'close' comes once every holder of the output pipes (npm, the shell, tsx, the server) is gone.
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code))).then(async (code) => {
    for (let i = 0; i < 100 && groupAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    return code;
  });

  const kill = () => {
    if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
  };
  let killedByStop = false;
  const stop = async () => {
    if (groupAlive(pid)) process.kill(-pid, 'SIGTERM');
    // The fallback for a server that ignores SIGTERM; `killedByStop` tells a test that it came.
    const timer = setTimeout(() => {
      killedByStop = groupAlive(pid);
      kill();
    }, 15_000);
    try {
      return await ended;
    } finally {
      clearTimeout(timer);
    }
  };
  return { child, stdout: () => stdout, stderr: () => stderr, ended, stop, kill, killedByStop: () => killedByStop };
}

/**
 * Waits for the `listening` line; fails with the output so far if the server ends or never says it.
 * The bound is a ceiling for a machine under load (several servers start at once, beside other
 * suites), kept under the processes suites' 120 s hook timeout so that the output is what fails.
 */
export async function waitForListening(run: ServerRun, timeoutMs = 110_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void run.ended.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (/listening/.test(run.stdout())) return run.stdout();
    if (exited) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The server did not print a listening line.\nstdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`);
}

export async function startServer(env: Record<string, string>): Promise<ServerRun & { output: string }> {
  const run = spawnServer(env);
  try {
    return { ...run, output: await waitForListening(run) };
  } catch (err) {
    run.kill();
    throw err;
  }
}
