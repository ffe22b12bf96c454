/**
 * Starts `npm run dev` once for the whole e2e run: a fresh database on the PostgreSQL of
 * TEST_POSTGRES_URL, a Redis database of its own on REDIS_URL (emptied first, so limits left by an
 * earlier run do not count), and a fresh DATA_DIR. Provides the base URL and admin token.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { RespConnection } from '../../local/standins/resp-connection.js';
import { freePort, userEnvironment } from '../embedded/server-process.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';

const ADMIN_TOKEN = 'adm_e2e_admin_token_0123456789';

/** Keys of the demo seed (seed/demo.json) whose tokens the suites share. */
const seededKeys = {
  acmeToken: 'esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc',
  acmeViewerToken: 'esk_test_acme_view_2Hn7Lc5Xv9Qm1Bz6Dp4K',
  globexToken: 'esk_test_globex_full_4Tr8Mn2Kx6Pw9Lc3Vb',
};

export default async function setup({ provide }: { provide: (key: string, value: string) => void }) {
  const server = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
  const name = `esign_e2e_${process.pid}_${Date.now()}`;
  await withClient(server, (client) => client.query(`create database ${name}`));
  const databaseUrl = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
  const redis = new RespConnection(new URL(redisUrl));
  await redis.send([['FLUSHDB']]);
  await redis.close();

  const dataDir = await mkdtemp(join(tmpdir(), 'esign-e2e-'));
  const port = await freePort();
  const child = spawn('npm', ['run', '-s', 'dev'], {
    cwd: new URL('../..', import.meta.url).pathname,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...userEnvironment(),
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      ADMIN_TOKEN,
      QSTASH_RETRY_SCALE: '0.05',
    },
  });
  // Everything npm run dev prints, wrangler's request log included, for the suite that looks for secrets in it.
  const logPath = join(dataDir, 'dev-output.log');
  const log = createWriteStream(logPath);
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => log.write(chunk));
  const output = await waitForListening(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  provide('e2eBaseUrl', baseUrl);
  provide('e2eMailboxUrl', /Dev mailbox:\s+(\S+)/.exec(output)?.[1] ?? '');
  // Tokens of the seeded keys, made before any suite uses up this address's 20 exchanges.
  for (const [name, key] of Object.entries(seededKeys)) provide(name as keyof typeof seededKeys, await exchange(baseUrl, key));
  const quotaTen = await companyWithQuota(baseUrl, 10);
  provide('quotaTenToken', quotaTen.token);
  provide('quotaTenTemplateId', quotaTen.templateId);
  // A key of its own for the flows that send Acme's NDA: the seeded key's 100 sends are spent by
  // the suite that tries the 101st.
  provide('acmeSenderToken', await acmeSender(baseUrl));
  // Made here, like every token of the run: a suite spends this address's 20 exchanges on purpose.
  const quotaTwo = await companyWithQuota(baseUrl, 2);
  provide('quotaTwoToken', quotaTwo.token);
  provide('quotaTwoTemplateId', quotaTwo.templateId);
  provide('e2eAdminToken', ADMIN_TOKEN);
  provide('e2eDevOutput', output);
  provide('e2eDevLogPath', logPath);
  // For suites that put rows in place as an older version left them (a trail grown one row a try).
  provide('e2eDatabaseUrl', databaseUrl);

  return async () => {
    // 'close' comes once every holder of the output pipes (npm, the dev script, wrangler) is gone;
    // SIGKILL is the fallback for a group still there after a generous bound.
    const closed = new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('close', resolve)));
    signalGroup(child, 'SIGTERM');
    let fallback: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([closed, new Promise((resolve) => (fallback = setTimeout(resolve, 15_000)))]);
    clearTimeout(fallback);
    signalGroup(child, 'SIGKILL');
    log.end();
    await rm(dataDir, { recursive: true, force: true });
    await withClient(server, (client) => client.query(`drop database if exists ${name} with (force)`));
  };
}

async function exchange(baseUrl: string, apiKey: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** A new owner of the seeded Acme company, with a key that may send. */
async function acmeSender(baseUrl: string): Promise<string> {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const acme = '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60';
  const user = await fetch(`${baseUrl}/admin/v1/companies/${acme}/users/e2e-sender@acme.test`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ name: 'E2E Sender', role: 'owner', esign_seat: true }),
  });
  if (!user.ok) throw new Error(`PUT user: ${user.status} ${await user.text()}`);
  const created = await fetch(`${baseUrl}/admin/v1/companies/${acme}/api-keys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ owner: 'e2e-sender@acme.test', scopes: ['envelopes:send', 'webhooks:read', 'webhooks:write'] }),
  });
  if (!created.ok) throw new Error(`POST api key: ${created.status} ${await created.text()}`);
  return exchange(baseUrl, ((await created.json()) as { key: string }).key);
}

/** A company of its own for the quota flows, made through the admin API with a one-signer template. */
async function companyWithQuota(baseUrl: string, quota: number) {
  const admin = async (method: string, path: string, body: unknown) => {
    const isForm = body instanceof FormData;
    const answer = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(isForm ? {} : { 'content-type': 'application/json' }) },
      body: isForm ? body : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as Record<string, any>;
  };
  const company = await admin('POST', '/admin/v1/companies', { name: `E2E quota ${Date.now()}`, api_signature_requests_per_period: quota });
  await admin('PUT', `/admin/v1/companies/${company.id}/users/quota-owner@example.test`, { name: 'Quota Owner', role: 'owner', esign_seat: true });
  const key = await admin('POST', `/admin/v1/companies/${company.id}/api-keys`, {
    owner: 'quota-owner@example.test',
    scopes: ['envelopes:send', 'templates:read'],
  });
  const form = new FormData();
  form.set('template', JSON.stringify({ name: 'One signer', signing_order: 'parallel', roles: [{ name: 'Signer', type: 'signer', order: 1 }], fields: [] }));
  form.set('document', new Blob([(await generateDocument('One signer', 1, nodeFontSource())) as BlobPart], { type: 'application/pdf' }), 'one.pdf');
  const template = await admin('POST', `/admin/v1/companies/${company.id}/templates`, form);
  return { token: await exchange(baseUrl, key.key), templateId: template.id as string };
}

/** Signals npm, the dev script and wrangler at once; a group that has already gone is fine. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

async function withClient(url: string, use: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}

function waitForListening(child: ChildProcess, timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm run dev did not print "listening" in time:\n${output}`)), timeoutMs);
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening/.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run dev exited with ${code}:\n${output}`));
    });
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eBaseUrl: string;
    e2eAdminToken: string;
    e2eDevOutput: string;
    /** A file that receives all that npm run dev prints, as it prints it; seal.json is beside it. */
    e2eDevLogPath: string;
    e2eDatabaseUrl: string;
    e2eMailboxUrl: string;
    acmeToken: string;
    acmeViewerToken: string;
    globexToken: string;
    quotaTenToken: string;
    quotaTenTemplateId: string;
    acmeSenderToken: string;
    quotaTwoToken: string;
    quotaTwoTemplateId: string;
  }
}
