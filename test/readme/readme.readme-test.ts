/**
 * The README and the guides under docs/, run: every shell example that calls the service runs, the
 * README's first and then each guide's in the order a reader follows them (READING_ORDER), in one
 * bash session (variables and counts carry from block to block and file to file, as in a reader's
 * terminal), against a fresh embedded server started as `npm start` starts it. The README's own
 * examples (the tour) run again, in a session of their own, against `npm run dev` (the Worker in
 * workerd with the production adapters), which the README offers as the other way to run it. Each
 * block's answers are checked against the statuses it documents (the convention is in
 * readme-blocks.ts and docs/development.md).
 *
 * The reader's terminal is a fresh folder holding what the examples' relative paths name
 * (`examples/`, and `package.json`, `scripts/` and `node_modules/` for `npm run admin`), with the
 * server's data in its `.data`, as `npm start` keeps it. The documented address,
 * http://127.0.0.1:8787, becomes a recording proxy in front of the server on a free port, and is
 * the server's BASE_URL, so the signing and download links it hands out pass the proxy too; the
 * CLI is pointed there by ADMIN_URL, its documented variable.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, type ServerRun, spawnServer, waitForListening } from '../embedded/server-process.js';
import { installed } from '../support/outside-tools.js';
import { readmeBlocks, statusMismatch } from './readme-blocks.js';

const README_BASE = 'http://127.0.0.1:8787';

/**
 * The README, then the guides as a reader goes on from it: the guides' examples build on what the
 * earlier ones made (the token, the admin token, the companies, the quota and rate-limit counts).
 */
const READING_ORDER = [
  'README.md',
  'docs/api-guide.md',
  'docs/signing.md',
  'docs/webhooks.md',
  'docs/evidence-and-seal.md',
  'docs/application.md',
  'docs/admin.md',
  'docs/operations.md',
  'docs/deploy.md',
  'docs/development.md',
  'docs/performance.md',
  'docs/reliability.md',
  'docs/api-reference.md',
];

const documents = await Promise.all(READING_ORDER.map(async (file) => ({ file, markdown: await readFile(join(projectRoot, file), 'utf8') })));
const blocks = documents.flatMap(({ file, markdown }) => readmeBlocks(markdown).map((block) => ({ ...block, file })));
const guides = (await readdir(join(projectRoot, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

/** The stacks the examples run on: what each runs, and the command that starts it (`npm start`'s when none). */
const STACKS = [
  { name: 'npm start', command: undefined, files: READING_ORDER },
  { name: 'npm run dev', command: ['npm', 'run', '-s', 'dev'], files: ['README.md'] },
] as const;

/** One reader's terminal: a bash session in a fresh folder, before a server on one stack. */
type Session = {
  folder: string;
  server: ServerRun & { output: string };
  proxy: Server;
  base: string;
  shell: ChildProcessWithoutNullStreams;
  output: string;
  /** The status of every request the examples made, in order. */
  answers: number[];
};

/** Passes each request to the server and notes its status; webhook deliveries to the dev inbox are the server's, not the reader's. */
function recordingProxy(port: number, answers: number[]): Promise<Server> {
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
function runInShell(session: Session, code: string): Promise<{ status: number; output: string }> {
  const { shell } = session;
  if (shell.exitCode !== null) return Promise.reject(new Error(`The bash session has ended. Output:\n${session.output}`));
  const marker = `@@readme-block-done-${crypto.randomUUID()}`;
  const start = session.output.length;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The block did not finish within 90 s. Output:\n${session.output.slice(start)}`)), 90_000);
    const onExit = () => reject(new Error(`The bash session ended. Output:\n${session.output.slice(start)}`));
    shell.once('exit', onExit);
    const onData = () => {
      const at = session.output.indexOf(marker, start);
      if (at < 0) return;
      const status = Number(/^ (\d+)/.exec(session.output.slice(at + marker.length))?.[1]);
      if (Number.isNaN(status)) return;
      clearTimeout(timer);
      shell.off('exit', onExit);
      shell.stdout.off('data', onData);
      resolve({ status, output: session.output.slice(start, at) });
    };
    shell.stdout.on('data', onData);
    // Grouped so that the block reads nothing of the session's input; its variables stay set.
    shell.stdin.write(`{\n${code}\n} < /dev/null\nprintf '\\n${marker} %d \\n' $?\n`);
  });
}

/** The README's tour, once run: the finished PDF holds the signers' values where the NDA requires them, and nothing in its optional Company field. */
function tourFilledOnlyRequiredFields(session: Session) {
  it.skipIf(!installed('pdftotext'))("leaves the tour's signed.pdf with the required fields filled and the optional Company empty", () => {
    const page = (number: number) =>
      execFileSync('pdftotext', ['-f', String(number), '-l', String(number), '-layout', join(session.folder, 'signed.pdf'), '-'], { encoding: 'utf8' });
    const [first, second] = [page(1), page(2)];
    // Page 1: the agreement's parties, with the Company line the Client left empty (the sign() of old typed the name there).
    expect(first).toContain('Mutual Non-Disclosure Agreement');
    expect(first).toContain('Company (Client)');
    expect(first).not.toContain('Cleo Client');
    // Page 2: the signature block, each signer's typed signature above its line.
    expect(second).toContain('Signature (Client)');
    expect(second).toMatch(/Cleo Client[\s\S]*Will Witness/);
  });
}

/** Starts the stack and a reader's terminal before the suite, and ends both after it. */
function readerSession(command: readonly string[] | undefined): Session {
  const session = { output: '', answers: [] as number[] } as Session;
  beforeAll(async () => {
    session.folder = await mkdtemp(join(tmpdir(), 'readme-'));
    for (const name of ['examples', 'package.json', 'scripts', 'node_modules']) await symlink(join(projectRoot, name), join(session.folder, name));
    const port = await freePort();
    session.proxy = await recordingProxy(port, session.answers);
    session.base = `http://127.0.0.1:${(session.proxy.address() as AddressInfo).port}`;
    // A shared, busy machine may take long to start it; the test is about the examples, not start-up time.
    const run = spawnServer({ PORT: String(port), DATA_DIR: join(session.folder, '.data'), BASE_URL: session.base }, command ? [...command] : undefined);
    session.server = {
      ...run,
      output: await waitForListening(run, 150_000).catch(async (err: unknown) => {
        // SIGTERM, so that `npm run dev` stops its wrangler group too.
        await run.stop();
        throw err;
      }),
    };

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: 'C.UTF-8',
      ADMIN_URL: session.base,
      npm_config_update_notifier: 'false',
    };
    session.shell = spawn('bash', ['--noprofile', '--norc'], { cwd: session.folder, env });
    session.shell.stdout.setEncoding('utf8').on('data', (chunk: string) => (session.output += chunk));
    session.shell.stderr.setEncoding('utf8').on('data', (chunk: string) => (session.output += chunk));
  }, 180_000);

  afterAll(async () => {
    session.shell?.stdin.end();
    session.shell?.kill();
    await new Promise((resolve) => (session.proxy ? session.proxy.close(resolve) : resolve(undefined)));
    await session.server?.stop();
    if (session.folder) await rm(session.folder, { recursive: true, force: true });
  });
  return session;
}

describe('the README and the guides', () => {
  it('run every guide under docs/, in the reading order', () => {
    expect([...guides].sort()).toEqual(READING_ORDER.filter((file) => file.startsWith('docs/')).sort());
  });

  it('have shell examples to run, and state their convention for them', () => {
    expect(blocks.filter((block) => block.file === 'README.md' && block.runs).length).toBeGreaterThanOrEqual(4);
    expect(blocks.filter((block) => block.runs).length).toBeGreaterThan(12);
    expect(blocks.some((block) => block.why === 'fenced as not-run')).toBe(true);
  });
});

for (const stack of STACKS) {
  describe(`the examples on ${stack.name}`, () => {
    const session = readerSession(stack.command);
    const run = blocks.filter((block) => (stack.files as readonly string[]).includes(block.file));
    const lastOfReadme = run.findLast((block) => block.file === 'README.md');
    for (const [index, block] of run.entries()) {
      // Right after the README's tour, before a guide's example can replace its signed.pdf.
      if (index > 0 && run[index - 1] === lastOfReadme) tourFilledOnlyRequiredFields(session);
      const title = `${block.file} line ${block.line} (${block.heading})`;
      if (!block.runs) {
        it.skip(`${title}: ${block.why}`, () => undefined);
        continue;
      }
      it(`${title} runs as written${block.statuses.length ? `, answering ${block.statuses.join(', ')}` : ''}`, async () => {
        const unparsable = syntaxError(block.code);
        expect(unparsable, `bash cannot parse the block at ${block.file} line ${block.line}`).toBeUndefined();
        const before = session.answers.length;
        const run = await runInShell(session, block.code.replaceAll(README_BASE, session.base));
        const made = session.answers.slice(before);
        const report = `\n--- block at ${block.file} line ${block.line} (${block.heading}) on ${stack.name} ---\n${block.code}\n--- its output ---\n${run.output}`;
        expect(run.status, `the block's last command failed${report}`).toBe(0);
        expect(made.length, `the block made no request${report}`).toBeGreaterThan(0);
        expect(statusMismatch(block.statuses, made), report).toBeUndefined();
        expect(
          made.filter((status) => status >= 500),
          report,
        ).toEqual([]);
      }, 180_000);
    }
    if (run.at(-1) === lastOfReadme) tourFilledOnlyRequiredFields(session);
  });
}
