/**
 * `npm run dev`'s own life: a script that waits only for the port gets answers, not a gateway
 * error, while wrangler dev is still building the Worker; and however the command ends, wrangler
 * and workerd (a process group of their own) end with it. Its own server, on PGlite and in-process
 * limits, beside the suite's shared one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eventually } from '../support/eventually.js';
import { freePort, type ServerRun, spawnServer, waitForListening } from '../embedded/server-process.js';

const startUp = { timeout: 120_000, interval: 50 };
let dataDir: string;
let port: number;
let run: ServerRun;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'esign-dev-life-'));
  port = await freePort();
  run = spawnServer({ PORT: String(port), DATA_DIR: dataDir }, ['npm', 'run', '-s', 'dev']);
});

afterAll(async () => {
  run?.kill();
  const group = wranglerGroupOf(dataDir);
  if (group) signalGroup(group, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

it('holds a request made as soon as the port accepts until the Worker answers it', async () => {
  await vi.waitFor(() => accepts(port), startUp);
  expect(run.stdout()).not.toMatch(/listening/);
  const answer = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`);
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { openapi: string }).openapi).toMatch(/^3\./);
}, 120_000);

it('takes wrangler and workerd with it when its terminal closes (SIGHUP)', async () => {
  await waitForListening(run, 120_000);
  const group = wranglerGroupOf(dataDir);
  expect(group).toBeDefined();
  // A terminal that closes sends SIGHUP to its whole foreground group: npm, tsx and the script.
  signalGroup(run.child.pid!, 'SIGHUP');
  await run.ended;
  await vi.waitFor(() => expect(groupAlive(group!)).toBe(false), eventually);
}, 120_000);

/** Resolves once a TCP connection to the port is accepted; rejects while it is refused. */
function accepts(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** The process group of the wrangler dev that keeps its state in this DATA_DIR. */
function wranglerGroupOf(dir: string): number | undefined {
  const table = execFileSync('ps', ['-eo', 'pgid=,args='], { encoding: 'utf8' });
  const line = table.split('\n').find((row) => row.includes('wrangler') && row.includes(join(dir, 'wrangler')));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(group: number, name: NodeJS.Signals) {
  try {
    process.kill(-group, name);
  } catch {
    // ESRCH: already gone.
  }
}
