/**
 * The README, run: every shell example that calls the service runs, in order, in one bash session
 * (variables carry from block to block, as in a reader's terminal), against a fresh embedded
 * server started as `npm start` starts it. Each block's answers are checked against the statuses
 * it documents (the convention is in readme-blocks.ts and the README's "Development").
 *
 * The reader's terminal is a fresh folder holding what the README's relative paths name
 * (`examples/`, and `package.json`, `scripts/` and `node_modules/` for `npm run admin`), with the
 * server's data in its `.data`, as `npm start` keeps it. The README's address,
 * http://127.0.0.1:8787, becomes a recording proxy in front of the server on a free port; the CLI
 * is pointed there by ADMIN_URL, its documented variable.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, type ServerRun, spawnServer, waitForListening } from '../embedded/server-process.js';
import { readmeBlocks, statusMismatch } from './readme-blocks.js';

const README_BASE = 'http://127.0.0.1:8787';

const markdown = await readFile(join(projectRoot, 'README.md'), 'utf8');
const blocks = readmeBlocks(markdown);

let folder: string;
let server: ServerRun & { output: string };
let proxy: Server;
let base: string;
let shell: ChildProcessWithoutNullStreams;
let output = '';
/** The status of every request the README made, in order. */
const answers: number[] = [];

/** Passes each request to the server and notes its status; webhook deliveries to the dev inbox are the server's, not the reader's. */
function recordingProxy(port: number): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const call = forward({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      if (!incoming.url?.startsWith('/dev/webhooks/inbox')) answers.push(answer.statusCode ?? 0);
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    call.on('error', () => outgoing.destroy());
    incoming.pipe(call);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Whether bash can parse the block: a syntax error would end the whole session. */
function syntaxError(code: string): string | undefined {
  const check = spawnSync('bash', ['-n'], { input: code, encoding: 'utf8' });
  return check.status === 0 ? undefined : check.stderr;
}

/** Runs one block in the session; resolves with its output and the exit status of its last command. */
function runInShell(code: string): Promise<{ status: number; output: string }> {
  if (shell.exitCode !== null) return Promise.reject(new Error(`The bash session has ended. Output:\n${output}`));
  const marker = `@@readme-block-done-${crypto.randomUUID()}`;
  const start = output.length;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The block did not finish within 90 s. Output:\n${output.slice(start)}`)), 90_000);
    shell.once('exit', () => reject(new Error(`The bash session ended. Output:\n${output.slice(start)}`)));
    const onData = () => {
      const at = output.indexOf(marker, start);
      if (at < 0) return;
      const status = Number(/^ (\d+)/.exec(output.slice(at + marker.length))?.[1]);
      if (Number.isNaN(status)) return;
      clearTimeout(timer);
      shell.stdout.off('data', onData);
      resolve({ status, output: output.slice(start, at) });
    };
    shell.stdout.on('data', onData);
    // Grouped so that the block reads nothing of the session's input; its variables stay set.
    shell.stdin.write(`{\n${code}\n} < /dev/null\nprintf '\\n${marker} %d \\n' $?\n`);
  });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'readme-'));
  for (const name of ['examples', 'package.json', 'scripts', 'node_modules']) await symlink(join(projectRoot, name), join(folder, name));
  // A shared, busy machine may take long to start it; the test is about the README, not start-up time.
  const run = spawnServer({ PORT: String(await freePort()), DATA_DIR: join(folder, '.data') });
  server = { ...run, output: await waitForListening(run, 150_000).catch((err: unknown) => (run.kill(), Promise.reject(err))) };
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output)?.[1]);
  proxy = await recordingProxy(port);
  base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ADMIN_URL: base, npm_config_update_notifier: 'false' };
  shell = spawn('bash', ['--noprofile', '--norc'], { cwd: folder, env });
  shell.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  shell.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
}, 180_000);

afterAll(async () => {
  shell?.stdin.end();
  shell?.kill();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await server?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the README', () => {
  it('has shell examples to run, and states its convention for them', () => {
    expect(blocks.filter((block) => block.runs).length).toBeGreaterThan(8);
    expect(markdown).toContain('```sh not-run');
  });

  for (const block of blocks) {
    const title = `line ${block.line} (${block.heading})`;
    if (!block.runs) {
      it.skip(`${title}: ${block.why}`, () => undefined);
      continue;
    }
    it(`${title} runs as written${block.statuses.length ? `, answering ${block.statuses.join(', ')}` : ''}`, async () => {
      const unparsable = syntaxError(block.code);
      expect(unparsable, `bash cannot parse the block at README line ${block.line}`).toBeUndefined();
      const before = answers.length;
      const run = await runInShell(block.code.replaceAll(README_BASE, base));
      const made = answers.slice(before);
      const report = `\n--- block at README line ${block.line} ---\n${block.code}\n--- its output ---\n${run.output}`;
      expect(run.status, `the block's last command failed${report}`).toBe(0);
      expect(made.length, `the block made no request${report}`).toBeGreaterThan(0);
      expect(statusMismatch(block.statuses, made), report).toBeUndefined();
      expect(made.filter((status) => status >= 500), report).toEqual([]);
    }, 180_000);
  }
});
