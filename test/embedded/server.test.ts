/**
 * `npm start` as a user meets it (the README's "Quick start", docs/operations.md's "Configuration"): the real server in a child process, its
 * printed lines run as printed, its environment variables honoured, its data kept across restarts.
 *
 * One file although long: the server process as a user meets it, started a few times and shared
 * where it can be.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { contractSeedPath, readSeed, repoSeedPath } from '../seed/seed-helpers.js';
import { type ServerRun, freePort, runCurl, spawnServer, startServer } from './server-process.js';

type Started = ServerRun & { output: string };

const runs: ServerRun[] = [];
let scratch: string;

/** Starts a server and remembers it, so that afterAll ends it whatever happens. */
async function start(env: Record<string, string>): Promise<Started> {
  const run = startServer(env);
  return run.then((started) => {
    runs.push(started);
    return started;
  });
}

/** Runs a server that is expected to give up, and waits for it to end. */
async function runToFailure(env: Record<string, string>) {
  const run = spawnServer(env);
  runs.push(run);
  const code = await run.ended;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];
const curlLines = (output: string) =>
  output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('curl '));
const urlsIn = (output: string) => output.match(/https?:\/\/[^\s'"]+/g) ?? [];
const withoutNpmNoise = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line && !line.startsWith('npm warn'))
    .join('\n');
const stackTrace = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

async function json(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function tokenFor(base: string, apiKey: string): Promise<string> {
  const answer = await json(`${base}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  });
  expect(answer.status).toBe(200);
  return answer.body.access_token;
}

const ENV_ADMIN_TOKEN = 'adm_from_the_environment_0123456789';
const INITECH_KEY = 'esk_test_initech_7Yq2Lm5Nx8Pc3Vb6Kd1W';

// Started together in beforeAll, as they do not depend on each other (PGlite takes seconds).
let first: Started; // a fresh DATA_DIR, every variable left at its default but PORT and DATA_DIR
let firstDir: string;
let firstBase: string;
let configured: Started; // ADMIN_TOKEN and SEED_FILE given
let configuredBase: string;
let badPort: Awaited<ReturnType<typeof runToFailure>>;
let badSeed: Awaited<ReturnType<typeof runToFailure>>;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'esign-embedded-'));
  firstDir = join(scratch, 'first');

  // The contract example as SEED_FILE, plus a company whose template PDF lies beside the seed file.
  const seedDir = join(scratch, 'seed');
  const seed = readSeed(existsSync(contractSeedPath) ? contractSeedPath : repoSeedPath) as { companies: object[] };
  seed.companies.push({
    name: 'Initech',
    api_signature_requests_per_period: 5,
    users: [{ email: 'ian@initech.test', name: 'Ian', role: 'owner', active: true, esign_seat: true }],
    api_keys: [{ id: 'key_initech', owner: 'ian@initech.test', key: INITECH_KEY, scopes: ['templates:read'] }],
    templates: [
      {
        name: 'Initech Lease',
        signing_order: 'parallel',
        document: { path: 'lease.pdf' },
        roles: [{ name: 'Tenant', type: 'signer', order: 1 }],
        fields: [{ role: 'Tenant', type: 'signature', page: 2, x: 72, y: 640, width: 200, height: 40 }],
      },
    ],
  });
  await mkdir(seedDir);
  await writeFile(join(seedDir, 'seed.json'), JSON.stringify(seed, null, 2));
  await writeFile(join(seedDir, 'lease.pdf'), await generateDocument('Lease', 2, nodeFontSource()));
  const invalid = readSeed(repoSeedPath) as any;
  invalid.companies[0].users[0].role = 'superuser';
  await writeFile(join(scratch, 'invalid-seed.json'), JSON.stringify(invalid));

  const [firstPort, configuredPort] = [await freePort(), await freePort()];
  firstBase = `http://127.0.0.1:${firstPort}`;
  configuredBase = `http://127.0.0.1:${configuredPort}`;
  [first, configured, badPort, badSeed] = await Promise.all([
    start({ PORT: String(firstPort), DATA_DIR: firstDir }),
    start({ PORT: String(configuredPort), DATA_DIR: join(scratch, 'configured'), ADMIN_TOKEN: ENV_ADMIN_TOKEN, SEED_FILE: join(seedDir, 'seed.json') }),
    runToFailure({ PORT: 'abc', DATA_DIR: join(scratch, 'bad-port') }),
    runToFailure({ PORT: String(await freePort()), DATA_DIR: join(scratch, 'bad-seed'), SEED_FILE: join(scratch, 'invalid-seed.json') }),
  ]);
}, 90_000);

afterAll(async () => {
  for (const run of runs) run.kill();
  await Promise.all(runs.map((run) => run.ended));
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('npm start on an empty DATA_DIR', () => {
  it('prints the admin token, an API key and curl lines on the default base URL, and then the listening line', () => {
    const output = first.output;
    expect(printed(output, 'Admin token')).toMatch(/^adm_\w{16,}$/);
    expect(printed(output, 'API key')).toBe('esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc');
    expect(printed(output, 'Company id')).toBe('7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60');
    expect(curlLines(output)).toHaveLength(2);
    expect(urlsIn(output).length).toBeGreaterThanOrEqual(5);
    for (const url of urlsIn(output)) expect(url.startsWith(`${firstBase}/`) || url === firstBase).toBe(true);
    const lines = output.trim().split('\n');
    expect(lines.at(-1)).toContain('listening');
    expect(lines.at(-1)).toContain(firstBase);
    expect(withoutNpmNoise(first.stderr())).toBe('');
  });

  it('answers the printed token exchange, as printed, with a one-hour bearer token that works', async () => {
    const exchange = curlLines(first.output).find((line) => line.includes('/v1/auth/token'))!;
    const answer = await runCurl(exchange);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const templates = await json(`${firstBase}/v1/templates`, { headers: { authorization: `Bearer ${answer.body.access_token}` } });
    expect(templates.status).toBe(200);
  });

  it('answers the printed templates call, as printed, with the demo templates', async () => {
    const list = curlLines(first.output).find((line) => line.includes('/v1/templates'))!;
    const answer = await runCurl(list);
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((template: { name: string }) => template.name).sort()).toEqual(['Mutual NDA', 'Offer Letter']);
    expect(answer.body.pagination).toMatchObject({ total: 2 });
  });

  it('makes an admin token, keeps it in DATA_DIR, and lets it (and only it) call the admin API', async () => {
    const adminToken = printed(first.output, 'Admin token')!;
    const secrets = JSON.parse(await readFile(join(firstDir, 'secrets.json'), 'utf8'));
    expect(secrets.admin_token).toBe(adminToken);
    const company = { name: 'Made by the admin API', api_signature_requests_per_period: 3 };
    const created = await json(`${firstBase}/admin/v1/companies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(company),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(company);
    const refused = await json(`${firstBase}/admin/v1/companies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}x`, 'content-type': 'application/json' },
      body: JSON.stringify(company),
    });
    expect(refused.status).toBe(401);
  });

  it('serves the dev mailbox as a page and as JSON', async () => {
    const page = await fetch(`${firstBase}/dev/mailbox`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Dev mailbox');
    const data = await json(`${firstBase}/dev/mailbox.json`);
    expect(data.status).toBe(200);
    expect(data.body).toEqual({ data: [] });
  });

  it("keeps the demo templates' PDFs as files under DATA_DIR/documents, each named after its SHA-256", async () => {
    const names = await readdir(join(firstDir, 'documents'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const bytes = await readFile(join(firstDir, 'documents', name));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(name);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  it('gives up clearly, without a stack trace, when its PORT is taken', async () => {
    const taken = await runToFailure({ PORT: new URL(firstBase).port, DATA_DIR: join(scratch, 'port-taken') });
    expect(taken.code).not.toBe(0);
    expect(taken.stdout).not.toContain('listening');
    expect(taken.stderr).toContain('PORT');
    expect(taken.stderr).toContain('already in use');
    expect(taken.stderr).not.toMatch(stackTrace);
    // It stopped before touching its DATA_DIR, which a running server may have open.
    expect(existsSync(join(scratch, 'port-taken'))).toBe(false);
  }, 40_000);
});

describe('a restart on the same DATA_DIR', () => {
  let second: Started;
  let secondBase: string;
  let tokenBefore: string;
  let contactId: string;
  let documentsBefore: string[];

  beforeAll(async () => {
    tokenBefore = await tokenFor(firstBase, printed(first.output, 'API key')!);
    const contact = await json(`${firstBase}/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenBefore}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rita Restart', email: 'rita@example.test', contact_number: '+44 20 7946 0000' }),
    });
    expect(contact.status).toBe(201);
    contactId = contact.body.id;

    await first.stop();
    documentsBefore = (await readdir(join(firstDir, 'documents'))).sort();
    const port = await freePort();
    // A BASE_URL other than the default, that still reaches the server, so the lines can be run.
    secondBase = `http://localhost:${port}`;
    second = await start({ PORT: String(port), DATA_DIR: firstDir, BASE_URL: `${secondBase}/` });
  }, 60_000);

  it('stopped on SIGTERM, by itself and without an error', async () => {
    expect(first.killedByStop()).toBe(false);
    expect(first.stderr()).not.toMatch(stackTrace);
    expect(withoutNpmNoise(first.stderr())).toBe('');
    await expect(fetch(`${firstBase}/dev/mailbox.json`)).rejects.toThrow();
  });

  it('prints the same admin token as before', () => {
    expect(printed(second.output, 'Admin token')).toBe(printed(first.output, 'Admin token'));
  });

  it('loads the demo seed again without an error or a duplicate, and keeps the contact made before', async () => {
    expect(withoutNpmNoise(second.stderr())).toBe('');
    const token = await tokenFor(secondBase, printed(second.output, 'API key')!);
    const contacts = await json(`${secondBase}/v1/contacts`, { headers: { authorization: `Bearer ${token}` } });
    expect(contacts.status).toBe(200);
    expect(contacts.body.pagination.total).toBe(2);
    expect(contacts.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: contactId, name: 'Rita Restart', email: 'rita@example.test', contact_number: '+44 20 7946 0000' }),
        expect.objectContaining({ name: 'Bob Buyer', email: 'bob@example.test' }),
      ]),
    );
    const templates = await json(`${secondBase}/v1/templates`, { headers: { authorization: `Bearer ${token}` } });
    expect(templates.body.pagination.total).toBe(2);
  });

  it("keeps the documents' files, and adds none for the seed loaded again (the same bytes are one file)", async () => {
    expect((await readdir(join(firstDir, 'documents'))).sort()).toEqual(documentsBefore);
  });

  it('still accepts an access token issued before the restart', async () => {
    const answer = await json(`${secondBase}/v1/templates`, { headers: { authorization: `Bearer ${tokenBefore}` } });
    expect(answer.status).toBe(200);
  });

  it('uses BASE_URL in every printed line, and the lines work as printed', async () => {
    const urls = urlsIn(second.output);
    expect(urls.length).toBeGreaterThanOrEqual(5);
    for (const url of urls) expect(url.startsWith(`${secondBase}/`) || url === secondBase).toBe(true);
    expect(second.output.trim().split('\n').at(-1)).toContain(`listening on ${secondBase}`);
    const [exchange, list] = curlLines(second.output);
    expect((await runCurl(exchange!)).status).toBe(200);
    const templates = await runCurl(list!);
    expect(templates.status).toBe(200);
    expect(templates.body.data).toHaveLength(2);
  });
});

describe('ADMIN_TOKEN and SEED_FILE', () => {
  it('prints and honours the ADMIN_TOKEN of the environment, and no other', async () => {
    expect(printed(configured.output, 'Admin token')).toBe(ENV_ADMIN_TOKEN);
    const company = { name: 'Made with the env token', api_signature_requests_per_period: 1 };
    const call = (token: string) =>
      json(`${configuredBase}/admin/v1/companies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(company),
      });
    expect((await call(ENV_ADMIN_TOKEN)).status).toBe(201);
    const kept = JSON.parse(await readFile(join(scratch, 'configured', 'secrets.json'), 'utf8'));
    expect(kept.admin_token).not.toBe(ENV_ADMIN_TOKEN);
    expect((await call(kept.admin_token)).status).toBe(401);
  });

  it('loads the SEED_FILE: the contract example, and a template PDF read beside the seed file', async () => {
    expect(withoutNpmNoise(configured.stderr())).toBe('');
    const [, list] = curlLines(configured.output);
    const acme = await runCurl(list!);
    expect(acme.status).toBe(200);
    expect(acme.body.data.map((template: { name: string }) => template.name).sort()).toEqual(['Mutual NDA', 'Offer Letter']);

    const token = await tokenFor(configuredBase, INITECH_KEY);
    const initech = await json(`${configuredBase}/v1/templates`, { headers: { authorization: `Bearer ${token}` } });
    expect(initech.body.data.map((template: { name: string }) => template.name)).toEqual(['Initech Lease']);
    const lease = await json(`${configuredBase}/v1/templates/${initech.body.data[0].id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(lease.body.document).toMatchObject({ file_name: 'lease.pdf', page_count: 2 });
  });
});

describe('a malformed environment', () => {
  it('PORT=abc: exits non-zero with a message naming PORT and no stack trace', () => {
    expect(badPort.code).not.toBe(0);
    expect(badPort.stdout).not.toContain('listening');
    expect(withoutNpmNoise(badPort.stderr)).toMatch(/PORT/);
    expect(badPort.stderr).not.toMatch(stackTrace);
  });

  it('an invalid SEED_FILE: exits non-zero naming the file and the path of the problem, with no stack trace', () => {
    expect(badSeed.code).not.toBe(0);
    expect(badSeed.stdout).not.toContain('listening');
    expect(badSeed.stderr).toContain('invalid-seed.json');
    expect(badSeed.stderr).toContain('companies[0].users[0].role');
    expect(badSeed.stderr).not.toMatch(stackTrace);
  });
});
