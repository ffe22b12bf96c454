/**
 * The admin CLI as an operator runs it: a child process talking HTTP to the real app, served here
 * in-process on a random port.
 *
 * One file although long: every command of one CLI, each a child process against the one served app.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, companies, users } from '../../src/data/schema.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { createTestCompany, createTestTemplate } from '../support/factories.js';
import { call } from '../support/http.js';
import { logoPng, svgLogo } from '../support/logo-images.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { exchange } from './admin-support.js';
import { unique } from '../support/unique.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

let stack: TestStack;
let server: ServerType;
let adminUrl: string;
let workDir: string;

beforeAll(async () => {
  stack = await openStack();
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: stack.app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port));
  });
  adminUrl = `http://127.0.0.1:${port}`;
  workDir = await mkdtemp(join(tmpdir(), 'admin-cli-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(workDir, { recursive: true, force: true });
  await stack.close();
});

type Run = { code: number; stdout: string; stderr: string };

/** Runs `scripts/admin.ts` with the given arguments; never throws, the exit code tells. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ADMIN_URL: adminUrl, ADMIN_TOKEN, ...env };
  for (const name of Object.keys(childEnv)) if (childEnv[name] === undefined) delete childEnv[name];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: root, env: childEnv as NodeJS.ProcessEnv }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const companyNamed = async (name: string) => stack.services.database.db.select().from(companies).where(eq(companies.name, name));

describe('admin CLI', () => {
  it('prints its commands for help', async () => {
    const run = await cli(['help']);
    expect(run.code).toBe(0);
    for (const command of [
      'list-companies',
      'list-users',
      'list-keys',
      'list-envelopes',
      'create-company',
      'put-user',
      'create-key',
      'rotate-key',
      'revoke-key',
      'import-template',
      'void-envelope',
    ]) {
      expect(run.stdout).toContain(command);
    }
  });

  it('create-company prints the new company as JSON, and the company exists', async () => {
    const name = `CLI Co ${unique()}`;
    const run = await cli(['create-company', '--name', name, '--quota', '42', '--brand-message', 'Sign, please.']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toMatchObject({ name, api_signature_requests_per_period: 42, brand: { default_email_message: 'Sign, please.' } });
    const rows = await companyNamed(name);
    expect(rows.map((row) => [row.id, row.apiSignatureRequestsPerPeriod])).toEqual([[printed.id, 42]]);
  });

  it('put-user then create-key prints a key that works at POST /v1/auth/token', async () => {
    const company = JSON.parse((await cli(['create-company', '--name', `CLI Keys ${unique()}`, '--quota', '5'])).stdout);
    const email = `cli-${unique()}@example.test`;
    const user = await cli(['put-user', '--company', company.id, '--email', email, '--name', 'Cli User', '--role', 'admin', '--seat']);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({ email, role: 'admin', active: true, esign_seat: true });

    const created = await cli(['create-key', '--company', company.id, '--owner', email, '--scopes', 'templates:read, contacts:read']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ owner: email, scopes: ['templates:read', 'contacts:read'] });
    expect(key.key).toMatch(/^esk_test_[0-9A-Za-z]{32}$/);
    expect((await stack.services.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]?.keyHash).toBe(await sha256Hex(key.key));
    expect((await exchange(stack, key.key)).status).toBe(200);
  });

  it('put-user --inactive deactivates the user', async () => {
    const company = JSON.parse((await cli(['create-company', '--name', `CLI Users ${unique()}`, '--quota', '5'])).stdout);
    const email = `off-${unique()}@example.test`;
    expect((await cli(['put-user', '--company', company.id, '--email', email, '--name', 'On', '--role', 'member'])).code).toBe(0);
    const off = await cli(['put-user', '--company', company.id, '--email', email, '--name', 'Off', '--role', 'viewer', '--inactive']);
    expect(off.code).toBe(0);
    const rows = await stack.services.database.db.select().from(users).where(eq(users.companyId, company.id));
    expect(rows.map((row) => [row.name, row.role, row.active, row.esignSeat])).toEqual([['Off', 'viewer', false, false]]);
  });

  it('rotate-key prints a new key and the old one stops working; revoke-key ends the new one', async () => {
    const company = JSON.parse((await cli(['create-company', '--name', `CLI Rotate ${unique()}`, '--quota', '5'])).stdout);
    const email = `rot-${unique()}@example.test`;
    await cli(['put-user', '--company', company.id, '--email', email, '--name', 'Rot', '--role', 'owner']);
    const key = JSON.parse((await cli(['create-key', '--company', company.id, '--owner', email, '--scopes', 'templates:read'])).stdout);

    const rotated = await cli(['rotate-key', key.id]);
    expect(rotated.code).toBe(0);
    const fresh = JSON.parse(rotated.stdout);
    expect(fresh.id).toBe(key.id);
    expect(fresh.key).not.toBe(key.key);
    expect((await exchange(stack, key.key)).status).toBe(401);
    expect((await exchange(stack, fresh.key)).status).toBe(200);

    const revoked = await cli(['revoke-key', key.id]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: key.id, revoked_at: expect.any(String) });
    expect((await exchange(stack, fresh.key)).status).toBe(401);

    const again = await cli(['revoke-key', key.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('404 api_key_not_found');
  });

  it('import-template uploads the JSON and the PDF', async () => {
    const company = JSON.parse((await cli(['create-company', '--name', `CLI Templates ${unique()}`, '--quota', '5'])).stdout);
    const templateFile = join(workDir, 'template.json');
    const pdfFile = join(workDir, 'lease.pdf');
    await writeFile(
      templateFile,
      JSON.stringify({
        name: 'Lease',
        signing_order: 'parallel',
        roles: [{ name: 'Tenant', type: 'signer', order: 1 }],
        fields: [{ role: 'Tenant', type: 'signature', page: 1, x: 72, y: 600, width: 200, height: 40 }],
      }),
    );
    await writeFile(pdfFile, await generateDocument('Lease', 1, nodeFontSource()));
    const run = await cli(['import-template', '--company', company.id, '--template', templateFile, '--pdf', pdfFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'Lease', document: { file_name: 'lease.pdf', page_count: 1 }, fields: [{ role: 'Tenant' }] });
  });

  it('list-companies, list-users and list-keys print one page each; a key by its prefix only', async () => {
    const company = JSON.parse((await cli(['create-company', '--name', `CLI Lists ${unique()}`, '--quota', '5'])).stdout);
    const email = `list-${unique()}@example.test`;
    await cli(['put-user', '--company', company.id, '--email', email, '--name', 'Lister', '--role', 'owner']);
    const key = JSON.parse((await cli(['create-key', '--company', company.id, '--owner', email, '--scopes', 'templates:read'])).stdout);

    // Other suites may add companies meanwhile (the integration run shares one database): pages are read until it is found.
    const listed: unknown[] = [];
    for (let page = 1; page <= 50 && !listed.some((entry) => (entry as { id: string }).id === company.id); page++) {
      const companiesRun = await cli(['list-companies', '--page', String(page), '--per-page', '100']);
      expect(companiesRun.code).toBe(0);
      const { data } = JSON.parse(companiesRun.stdout) as { data: unknown[] };
      if (data.length === 0) break;
      listed.push(...data);
    }
    expect(listed).toContainEqual(company);
    const usersRun = JSON.parse((await cli(['list-users', '--company', company.id])).stdout);
    expect(usersRun.data).toEqual([expect.objectContaining({ email, role: 'owner' })]);
    const keysRun = await cli(['list-keys', '--company', company.id, '--page', '1', '--per-page', '10']);
    expect(keysRun.code).toBe(0);
    expect(JSON.parse(keysRun.stdout)).toEqual({
      data: [expect.objectContaining({ id: key.id, prefix: key.prefix, owner: email, status: 'active' })],
      pagination: { page: 1, per_page: 10, total: 1, total_pages: 1 },
    });
    expect(keysRun.stdout).not.toContain(key.key);

    const bad = await cli(['list-keys', '--company', company.id, '--per-page', '500']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('422 validation_failed');
  });

  it('list-envelopes shows a sent envelope, void-envelope voids it and its links stop working', async () => {
    const company = await createTestCompany(stack);
    const template = await createTestTemplate(stack, company.id);
    const sent = await call(stack, 'POST', '/v1/envelopes/from-template', {
      token: company.owner.token,
      body: {
        template_id: template.id,
        recipients: [
          { role: 'Client', name: 'Cleo', email: 'cleo@example.test' },
          { role: 'Witness', name: 'Will', email: 'will@example.test' },
        ],
      },
    });
    expect(sent.status).toBe(201);
    const id = sent.body.envelope_id as string;
    const listed = JSON.parse((await cli(['list-envelopes', '--company', company.id])).stdout);
    expect(listed.data).toEqual([expect.objectContaining({ envelope_id: id, status: 'sent' })]);

    const voided = await cli(['void-envelope', id, '--reason', 'Sent to the wrong client']);
    expect(voided.stderr).toBe('');
    expect(voided.code).toBe(0);
    expect(JSON.parse(voided.stdout)).toMatchObject({ envelope_id: id, status: 'voided' });
    const links = await call(stack, 'GET', `/v1/envelopes/${id}/signing-links`, { token: company.owner.token });
    const urls = links.body.signing_urls.map((link: { signing_url: string | null }) => link.signing_url);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((url: string | null) => url === null)).toBe(true);
    expect(JSON.parse((await cli(['list-envelopes', '--company', company.id])).stdout).data[0]).toMatchObject({ status: 'voided' });

    const unknown = await cli(['void-envelope', 'env_unknown']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('404 envelope_not_found');
  });

  it('exits 1 with the error code and message on an error answer, printing nothing on stdout', async () => {
    const company = JSON.parse((await cli(['create-company', '--name', `CLI Errors ${unique()}`, '--quota', '5'])).stdout);
    const run = await cli(['create-key', '--company', company.id, '--owner', 'nobody@example.test', '--scopes', 'templates:read']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('404 user_not_found: The owner must be a user of the company.');

    const invalid = await cli(['create-company', '--name', 'x'.repeat(201), '--quota', '5']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('422 validation_failed');
    expect(invalid.stderr).toContain('"path": "name"');
  });

  it('refuses to run without ADMIN_TOKEN, and says so, sending nothing', async () => {
    const name = `CLI No Token ${unique()}`;
    const run = await cli(['create-company', '--name', name, '--quota', '5'], { ADMIN_TOKEN: undefined });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('ADMIN_TOKEN is not set');
    expect(await companyNamed(name)).toEqual([]);
  });

  it('reports a wrong ADMIN_TOKEN as 401 unauthorized', async () => {
    const name = `CLI Wrong Token ${unique()}`;
    const run = await cli(['create-company', '--name', name, '--quota', '5'], { ADMIN_TOKEN: 'not-the-token' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('401 unauthorized');
    expect(await companyNamed(name)).toEqual([]);
  });

  it('exits 2 on a usage mistake: a missing option, an unknown command or option', async () => {
    for (const args of [
      ['create-company', '--quota', '5'],
      ['create-company', '--name', 'X', '--quota', 'many'],
      ['launch'],
      ['create-company', '--colour', 'red'],
      ['rotate-key'],
      ['void-envelope'],
      ['list-users'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('npm run admin -- help');
    }
  });
});

describe('admin CLI: the brand', () => {
  it('sets the display name, colour and a logo file, reads them back, and removes the logo', async () => {
    const company = await createTestCompany(stack);
    const logoFile = join(workDir, 'logo.png');
    await writeFile(logoFile, logoPng());
    const set = await cli(['set-brand', '--company', company.id, '--display-name', 'CLI Legal', '--accent-color', '#0b7a53', '--logo', logoFile]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ display_name: 'CLI Legal', accent_color: '#0b7a53', logo: { type: 'image/png' } });
    const read = await cli(['get-brand', '--company', company.id]);
    expect(JSON.parse(read.stdout)).toEqual(JSON.parse(set.stdout));

    const removed = await cli(['set-brand', '--company', company.id, '--no-logo']);
    expect(JSON.parse(removed.stdout)).toMatchObject({ display_name: 'CLI Legal', logo: null });
  });

  it('reports a refused logo with its path, and exits 2 when nothing is given', async () => {
    const company = await createTestCompany(stack);
    const svgFile = join(workDir, 'logo.svg');
    await writeFile(svgFile, svgLogo);
    const refused = await cli(['set-brand', '--company', company.id, '--logo', svgFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('422 validation_failed');
    expect(refused.stderr).toContain('"path": "logo"');
    const empty = await cli(['set-brand', '--company', company.id]);
    expect(empty.code).toBe(2);
  });
});

describe('admin CLI: text-message countries', () => {
  it('sets the countries a company’s codes are texted to, reads them back, allows every one again, and refuses an unknown one', async () => {
    const company = await createTestCompany(stack);
    const set = await cli(['set-text-messages', '--company', company.id, '--countries', 'gb, IE']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ company_id: company.id, allowed_countries: ['GB', 'IE'] });
    const read = await cli(['get-text-messages', '--company', company.id]);
    expect(JSON.parse(read.stdout)).toEqual(JSON.parse(set.stdout));
    const all = await cli(['set-text-messages', '--company', company.id, '--countries', 'all']);
    expect(JSON.parse(all.stdout)).toEqual({ company_id: company.id, allowed_countries: null });

    const refused = await cli(['set-text-messages', '--company', company.id, '--countries', 'UK']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('422 validation_failed');
    expect(refused.stderr).toContain('"path": "allowed_countries[0]"');
    const missing = await cli(['set-text-messages', '--company', company.id]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--countries is required');
  });
});

describe('admin CLI: embedding', () => {
  it('sets the origins that may frame the signing pages, reads them back, and clears them', async () => {
    const company = await createTestCompany(stack);
    const set = await cli(['set-embedding', '--company', company.id, '--origins', 'https://App.Example.com:443, https://crm.example.org']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ company_id: company.id, allowed_origins: ['https://app.example.com', 'https://crm.example.org'] });
    const read = await cli(['get-embedding', '--company', company.id]);
    expect(JSON.parse(read.stdout)).toEqual(JSON.parse(set.stdout));

    const cleared = await cli(['set-embedding', '--company', company.id, '--origins', '']);
    expect(JSON.parse(cleared.stdout)).toEqual({ company_id: company.id, allowed_origins: [] });
  });

  it('reports a refused origin with its path, and exits 2 without --origins', async () => {
    const company = await createTestCompany(stack);
    const refused = await cli(['set-embedding', '--company', company.id, '--origins', 'https://app.example.com/path']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('422 validation_failed');
    expect(refused.stderr).toContain('"path": "allowed_origins[0]"');
    expect((await cli(['get-embedding', '--company', company.id])).stdout).toContain('"allowed_origins": []');
    const missing = await cli(['set-embedding', '--company', company.id]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--origins is required');
  });
});
