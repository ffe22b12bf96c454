/**
 * One file although long: one loader, its example files, its reloads and its refusals; the
 * behaviours share one stack, whose embedded database takes seconds to open, and the factories of
 * this subject.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditEvents, brandSettings, companies, templateDocuments, users } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { revokeApiKey, rotateApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { DomainError } from '../../src/errors.js';
import { errorStatus } from '../../src/http/error-status.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { readPageSizes } from '../../src/pdf/inspect-document.js';
import { type SeededKey, loadSeed, loadSeedFile } from '../../src/seed/load-seed.js';
import { asOperator } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { installed } from '../support/outside-tools.js';
import { openStack, type TestStack } from '../support/stack.js';
import { storedBytes } from '../support/stored-documents.js';
import { contractSeedPath, countRows, freshDemoSeed, readSeed, repoSeedPath, type SeedInput } from './seed-helpers.js';

/** The error a load fails with, for expectations on its code and issues. */
async function failure(load: Promise<unknown>): Promise<DomainError> {
  const outcome = await load.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome, 'the load should have failed').toBeInstanceOf(DomainError);
  return outcome as DomainError;
}

const issuePaths = (err: DomainError) => (err.details.issues as { path: string }[]).map((issue) => issue.path);

const companyIds = (seed: SeedInput) => seed.companies.map((company) => company.id!);

/** The document seed/demo.json gives the template `id`, if it has one. */
const firstLoadedDocument = (id: string) =>
  (readSeed(repoSeedPath).companies.flatMap((company) => company.templates ?? []) as { id?: string; document: unknown }[]).find(
    (template) => template.id === id,
  )?.document as Record<string, any> | undefined;

/** Every check of a freshly loaded example seed, for one file that holds it. */
function describeExampleLoad(label: string, path: string) {
  (existsSync(path) ? describe : describe.skip)(`loading ${label}`, () => {
    const seed = existsSync(path) ? readSeed(path) : { companies: [] };
    let stack: TestStack;
    let seededKeys: SeededKey[];
    beforeAll(async () => {
      stack = await openStack();
      seededKeys = await loadSeedFile(stack.services, path);
    });
    afterAll(() => stack.close());

    const tokenFor = async (keyId: string) => {
      const key = seededKeys.find((candidate) => candidate.id === keyId)!;
      return (await exchangeApiKey(asOperator(stack), { apiKey: key.key })).access_token;
    };

    it('creates the two companies with their plan quota and brand message', async () => {
      const { db } = stack.services.database;
      const rows = await db
        .select()
        .from(companies)
        .where(inArray(companies.id, companyIds(seed)));
      expect(rows.map((row) => [row.id, row.name, row.apiSignatureRequestsPerPeriod]).sort()).toEqual(
        [
          ['7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60', 'Acme Ltd', 500],
          ['9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c60', 'Globex Corp', 2],
        ].sort(),
      );
      const brands = await db
        .select()
        .from(brandSettings)
        .where(inArray(brandSettings.companyId, companyIds(seed)));
      expect(brands.map((brand) => [brand.companyId, brand.defaultEmailMessage, brand.active]).sort()).toEqual(
        [
          ['7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60', 'Please review and sign this document.', true],
          ['9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c60', 'Globex needs your signature.', true],
        ].sort(),
      );
    });

    it('creates every user with role, active and esign_seat as given', async () => {
      for (const company of seed.companies) {
        const rows = await stack.services.database.db.select().from(users).where(eq(users.companyId, company.id!));
        const stored = rows.map((row) => ({ email: row.email, name: row.name, role: row.role, active: row.active, esign_seat: row.esignSeat }));
        expect(stored.sort((a, b) => a.email.localeCompare(b.email))).toEqual([...company.users!].sort((a, b) => a.email.localeCompare(b.email)));
      }
      const acme = await stack.services.database.db.select().from(users).where(eq(users.companyId, seed.companies[0]!.id!));
      expect(acme.find((user) => user.email === 'ivan@acme.test')).toMatchObject({ active: false, esignSeat: true });
      expect(acme.find((user) => user.email === 'nora@acme.test')).toMatchObject({ active: true, esignSeat: false });
    });

    it('returns the seeded keys, and each exchanges for a bearer token', async () => {
      expect(seededKeys.map((key) => [key.companyName, key.id, key.owner])).toEqual([
        ['Acme Ltd', 'key_acme_full', 'olivia@acme.test'],
        ['Acme Ltd', 'key_acme_readonly', 'olivia@acme.test'],
        ['Acme Ltd', 'key_acme_viewer', 'vera@acme.test'],
        ['Globex Corp', 'key_globex_full', 'gail@globex.test'],
      ]);
      for (const key of seededKeys) {
        const token = await exchangeApiKey(asOperator(stack), { apiKey: key.key });
        expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
        expect(token.access_token.split('.')).toHaveLength(3);
      }
      const answer = await call(stack, 'GET', '/v1/templates', { token: await tokenFor('key_acme_readonly') });
      expect(answer.status).toBe(200);
    });

    it('stores each key as its sha256 only, never the plain key', async () => {
      const { db } = stack.services.database;
      const rows = await db
        .select()
        .from(apiKeys)
        .where(inArray(apiKeys.companyId, companyIds(seed)));
      const audits = await db
        .select()
        .from(auditEvents)
        .where(inArray(auditEvents.companyId, companyIds(seed)));
      expect(rows).toHaveLength(4);
      for (const key of seededKeys) {
        const row = rows.find((candidate) => candidate.id === key.id)!;
        expect(row.keyHash).toBe(await sha256Hex(key.key));
        expect(row.scopes).toEqual(key.scopes);
        const secret = key.key.slice(key.key.lastIndexOf('_') + 1);
        for (const stored of [JSON.stringify(rows), JSON.stringify(audits)]) {
          expect(stored).not.toContain(key.key);
          expect(stored).not.toContain(secret);
        }
      }
    });

    it('imports the templates with settings, roles, locked recipients, fields and a generated PDF', async () => {
      for (const company of seed.companies) {
        const fullKey = company.api_keys!.find((key) => key.scopes.length === 6)!;
        const token = await tokenFor(fullKey.id);
        const list = await call(stack, 'GET', '/v1/templates', { token });
        expect(list.status).toBe(200);
        expect(list.body.data.map((template: { id: string }) => template.id).sort()).toEqual(
          (company.templates as { id: string }[]).map((template) => template.id).sort(),
        );

        for (const given of company.templates as Record<string, any>[]) {
          const answer = await call(stack, 'GET', `/v1/templates/${given.id}`, { token });
          expect(answer.status).toBe(200);
          const { roles, fields, ...settings } = given;
          // The suites share a database: a template the repository copy made under the same id,
          // loaded before the contract example, keeps the repository copy's document.
          const source = (path === contractSeedPath ? firstLoadedDocument(given.id) : undefined) ?? given.document;
          delete settings.document;
          expect(answer.body).toMatchObject(settings);
          expect(answer.body.roles).toEqual(roles.map((role: object) => ({ recipient: null, verification: 'none', contact_number_required: false, ...role })));
          // The API gives fields in reading order: page, then top to bottom, then left to right.
          const readingOrder = [...fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
          expect(answer.body.fields).toEqual(readingOrder.map((field: object) => ({ label: null, settings: null, ...field })));

          // A generated document, or a file beside the seed (the demo NDA's).
          const expectedBytes =
            'generate' in source
              ? await generateDocument(source.generate.title, source.generate.pages, nodeFontSource())
              : new Uint8Array(await readFile(join(dirname(repoSeedPath), source.path)));
          const pages = 'generate' in source ? source.generate.pages : 2;
          expect(answer.body.document).toEqual({
            file_name: 'generate' in source ? 'document.pdf' : basename(source.path),
            sha256: await sha256Hex(expectedBytes),
            page_count: pages,
            pages: Array.from({ length: pages }, () => ({ width: 612, height: 792 })),
          });
          const [stored] = await stack.services.database.db
            .select({ key: templateDocuments.storageKey })
            .from(templateDocuments)
            .where(eq(templateDocuments.templateId, given.id));
          expect(await readPageSizes(await storedBytes(stack.services.documents, stored!.key!))).toHaveLength(pages);
        }
      }
      // 2 + 1, and the locked roles keep their fixed recipient.
      expect(seed.companies.map((company) => company.templates!.length)).toEqual([2, 1]);
      const nda = await call(stack, 'GET', '/v1/templates/2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50', { token: await tokenFor('key_acme_full') });
      expect(nda.body.roles[2]).toEqual({
        name: 'Counsel',
        type: 'cc',
        order: 3,
        locked: true,
        recipient: { name: 'Carl Counsel', email: 'counsel@acme.test' },
        verification: 'none',
        contact_number_required: false,
      });
    });

    it('adds the contact to Acme and none to Globex', async () => {
      const acme = await call(stack, 'GET', '/v1/contacts', { token: await tokenFor('key_acme_full') });
      expect(acme.status).toBe(200);
      expect(acme.body.data).toEqual([expect.objectContaining({ name: 'Bob Buyer', email: 'bob@example.test', contact_number: '+1 555 0100' })]);
      const globex = await call(stack, 'GET', '/v1/contacts', { token: await tokenFor('key_globex_full') });
      expect(globex.body.data).toEqual([]);
    });

    it('lets the viewer key read but not write, as the viewer role allows', async () => {
      const token = await tokenFor('key_acme_viewer');
      expect((await call(stack, 'GET', '/v1/templates', { token })).status).toBe(200);
      const write = await call(stack, 'POST', '/v1/contacts', { token, body: { name: 'Nope', email: 'nope@example.test' } });
      expect(write.status).toBe(403);
      expect(errorCode(write)).toBe('permission_denied');
    });
  });
}

describeExampleLoad('the repository copy (seed/demo.json)', repoSeedPath);
describeExampleLoad('the contract example (/work/shared/contract/seed-example.json)', contractSeedPath);

describe.skipIf(!existsSync(contractSeedPath))('the repository demo seed', () => {
  it('is the contract example, but for the NDA, whose document is a real agreement beside the seed', () => {
    const repo = readSeed(repoSeedPath) as { companies: { templates?: { name: string; document: unknown }[] }[] };
    const nda = repo.companies[0]!.templates!.find((template) => template.name === 'Mutual NDA')!;
    expect(nda.document).toEqual({ path: 'mutual-nda.pdf' });
    nda.document = { generate: { title: 'Mutual Non-Disclosure Agreement', pages: 2 } };
    expect(repo).toEqual(readSeed(contractSeedPath));
  });
});

// The tests below make their own companies (fresh ids), so they share one stack: PGlite takes
// seconds to start.
let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack?.close());

describe('loading a seed again', () => {
  it('is harmless: no error, the same rows, the same keys returned', async () => {
    const seed = freshDemoSeed();
    const first = await loadSeed(stack.services, seed, process.cwd());
    const before = await countRows(stack.services, companyIds(seed));
    expect(before).toMatchObject({ companies: 2, users: 6, apiKeys: 4, templates: 3, templateDocuments: 3, templateRoles: 6, contacts: 1 });
    const second = await loadSeed(stack.services, seed, process.cwd());
    expect(second).toEqual(first);
    expect(await countRows(stack.services, companyIds(seed))).toEqual(before);
  });

  it('the shipped demo seed too, from its file', async () => {
    await loadSeedFile(stack.services, repoSeedPath);
    const ids = companyIds(readSeed(repoSeedPath));
    const before = await countRows(stack.services, ids);
    await loadSeedFile(stack.services, repoSeedPath);
    expect(await countRows(stack.services, ids)).toEqual(before);
  });

  it('does not undo what changed since: a rotated key, a revoked key, a deactivated user, a changed role', async () => {
    const seed = freshDemoSeed();
    const [acme] = seed.companies;
    const [full, readonly] = acme!.api_keys!;
    await loadSeed(stack.services, seed, process.cwd());

    const rotated = await rotateApiKey(asOperator(stack), { apiKeyId: full!.id });
    await revokeApiKey(asOperator(stack), { apiKeyId: readonly!.id });
    const sam = acme!.users!.find((user) => user.email === 'sam@acme.test')!;
    await putUser(asOperator(stack, acme!.id!), { email: sam.email, input: { name: sam.name, role: 'member', active: false, esign_seat: true } });
    await putUser(asOperator(stack, acme!.id!), { email: 'vera@acme.test', input: { name: 'Vera Viewer', role: 'admin', active: true, esign_seat: false } });
    const before = await countRows(stack.services, companyIds(seed));

    await loadSeed(stack.services, seed, process.cwd());

    expect(await countRows(stack.services, companyIds(seed))).toEqual(before);
    await expect(exchangeApiKey(asOperator(stack), { apiKey: full!.key })).rejects.toMatchObject({ code: 'invalid_api_key' });
    await expect(exchangeApiKey(asOperator(stack), { apiKey: readonly!.key })).rejects.toMatchObject({ code: 'invalid_api_key' });
    const token = await exchangeApiKey(asOperator(stack), { apiKey: rotated.key });
    expect((await call(stack, 'GET', '/v1/templates', { token: token.access_token })).status).toBe(200);
    const [row] = await stack.services.database.db.select().from(apiKeys).where(eq(apiKeys.id, full!.id));
    expect(row).toMatchObject({ version: 2, keyHash: await sha256Hex(rotated.key) });

    const people = await stack.services.database.db.select().from(users).where(eq(users.companyId, acme!.id!));
    expect(people.find((user) => user.email === 'sam@acme.test')).toMatchObject({ active: false });
    expect(people.find((user) => user.email === 'vera@acme.test')).toMatchObject({ role: 'admin' });
  });

  it('adds only what the seed gained since the last load', async () => {
    const seed = freshDemoSeed();
    await loadSeed(stack.services, seed, process.cwd());
    const before = await countRows(stack.services, companyIds(seed));
    const globex = seed.companies[1]!;
    globex.users!.push({ email: 'gus@globex.test', name: 'Gus', role: 'member', active: true, esign_seat: true });
    globex.contacts!.push({ name: 'Dana Doe', email: 'dana@example.test' });
    await loadSeed(stack.services, seed, process.cwd());
    expect(await countRows(stack.services, companyIds(seed))).toEqual({ ...before, users: before.users! + 1, contacts: before.contacts! + 1 });
  });
});

describe('a template document given as a file', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'esign-seed-'));
    await mkdir(join(folder, 'docs'));
    await writeFile(join(folder, 'x.pdf'), await generateDocument('Lease', 3, nodeFontSource()));
    await writeFile(join(folder, 'docs', 'y.pdf'), await generateDocument('Addendum', 1, nodeFontSource()));
    await writeFile(join(folder, 'not-a-pdf.pdf'), 'just text');
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const seedWith = (documents: object[]): SeedInput => ({
    companies: [
      {
        id: crypto.randomUUID(),
        name: 'Files Inc',
        api_signature_requests_per_period: 10,
        users: [{ email: 'fay@files.test', name: 'Fay', role: 'owner', active: true, esign_seat: true }],
        templates: documents.map((document, index) => ({
          id: crypto.randomUUID(),
          name: `Lease ${index}`,
          signing_order: 'parallel',
          document,
          roles: [{ name: 'Tenant', type: 'signer', order: 1 }],
          fields: [{ role: 'Tenant', type: 'signature', page: 1, x: 72, y: 640, width: 200, height: 40 }],
        })) as never,
      },
    ],
  });

  it('reads the PDF relative to the seed file folder, not the working directory', async () => {
    const seed = seedWith([{ path: 'x.pdf' }, { path: 'docs/y.pdf' }]);
    (seed.companies[0]!.templates![0] as { fields: object[] }).fields.push({ role: 'Tenant', type: 'initials', page: 3, x: 72, y: 700, width: 60, height: 30 });
    const seedPath = join(folder, 'seed.json');
    await writeFile(seedPath, JSON.stringify(seed));
    expect(process.cwd()).not.toBe(folder);

    await loadSeedFile(stack.services, seedPath);

    const rows = await stack.services.database.db
      .select({
        templateId: templateDocuments.templateId,
        fileName: templateDocuments.fileName,
        sha256: templateDocuments.sha256,
        pages: templateDocuments.pages,
      })
      .from(templateDocuments)
      .where(eq(templateDocuments.companyId, seed.companies[0]!.id!));
    const [lease, addendum] = (seed.companies[0]!.templates as { id: string }[]).map((template) => rows.find((row) => row.templateId === template.id));
    expect(lease).toMatchObject({ fileName: 'x.pdf', sha256: await sha256Hex(await generateDocument('Lease', 3, nodeFontSource())) });
    expect(lease!.pages).toHaveLength(3);
    expect(addendum).toMatchObject({ fileName: 'y.pdf', sha256: await sha256Hex(await generateDocument('Addendum', 1, nodeFontSource())) });

    // Loading it again, as a restart does, is harmless for file documents too.
    const before = await countRows(stack.services, companyIds(seed));
    await loadSeedFile(stack.services, seedPath);
    expect(await countRows(stack.services, companyIds(seed))).toEqual(before);
  });

  it.skipIf(!installed('pdftotext'))('generates a document whose title is in any script, drawn and copyable as given', async () => {
    const title = 'Договор аренды · 賃貸契約 · Ελληνικά · עברית';
    const seed = seedWith([{ generate: { title, pages: 2 } }]);
    await loadSeed(stack.services, seed, folder);
    const [row] = await stack.services.database.db
      .select({ key: templateDocuments.storageKey, pages: templateDocuments.pages })
      .from(templateDocuments)
      .where(eq(templateDocuments.companyId, seed.companies[0]!.id!));
    expect(row!.pages).toHaveLength(2);
    const pdfPath = join(folder, 'generated.pdf');
    await writeFile(pdfPath, await storedBytes(stack.services.documents, row!.key!));
    const { stdout } = await promisify(execFile)('pdftotext', ['-f', '1', '-l', '1', pdfPath, '-']);
    const shown = stdout.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
    for (const part of ['Договор аренды', '賃貸契約', 'Ελληνικά', 'עברית']) expect(shown).toContain(part);
    expect(shown).not.toContain('?');
  });

  it('names the path of a missing file', async () => {
    const err = await failure(loadSeed(stack.services, seedWith([{ path: 'missing.pdf' }]), folder));
    expect(err.code).toBe('validation_failed');
    expect(issuePaths(err)).toEqual(['companies[0].templates[0].document.path']);
  });

  it('names the document that is not a PDF', async () => {
    const err = await failure(loadSeed(stack.services, seedWith([{ path: 'not-a-pdf.pdf' }]), folder));
    expect(err.code).toBe('validation_failed');
    expect(issuePaths(err)).toEqual(['companies[0].templates[0].document']);
  });
});

describe('an invalid seed', () => {
  type Edit = (seed: any) => void;
  const checkedBeforeWriting: [string, Edit, string][] = [
    ['an unknown top-level field', (seed) => (seed.settings = {}), 'settings'],
    ['an unknown company field', (seed) => (seed.companies[1].colour = 'red'), 'companies[1].colour'],
    ['an unknown user field', (seed) => (seed.companies[0].users[1].nickname = 'S'), 'companies[0].users[1].nickname'],
    ['an unknown template field', (seed) => (seed.companies[0].templates[1].colour = 'red'), 'companies[0].templates[1].colour'],
    ['an unknown field of a template field', (seed) => (seed.companies[0].templates[0].fields[2].font = 'Arial'), 'companies[0].templates[0].fields[2].font'],
    ['a user role that does not exist', (seed) => (seed.companies[0].users[0].role = 'superuser'), 'companies[0].users[0].role'],
    [
      'a template role type that does not exist',
      (seed) => (seed.companies[1].templates[0].roles[0].type = 'approver'),
      'companies[1].templates[0].roles[0].type',
    ],
    ['a field for a role the template lacks', (seed) => (seed.companies[0].templates[0].fields[3].role = 'Notary'), 'companies[0].templates[0].fields[3].role'],
    ['a locked role without its recipient', (seed) => delete seed.companies[0].templates[0].roles[2].recipient, 'companies[0].templates[0].roles[2].recipient'],
    ['a scope that does not exist', (seed) => (seed.companies[0].api_keys[1].scopes = ['templates:delete']), 'companies[0].api_keys[1].scopes[0]'],
    [
      'a document that is neither a path nor generated',
      (seed) => (seed.companies[0].templates[0].document = { url: 'http://x' }),
      'companies[0].templates[0].document',
    ],
  ];

  it.each(checkedBeforeWriting)('refuses %s with validation_failed naming the path, before writing anything', async (_label, edit, path) => {
    const seed = freshDemoSeed();
    edit(seed);
    const err = await failure(loadSeed(stack.services, seed, process.cwd()));
    expect(err.code).toBe('validation_failed');
    expect(errorStatus[err.code]).toBe(422);
    expect(issuePaths(err)).toContain(path);
    expect(await countRows(stack.services, companyIds(seed))).toMatchObject({ companies: 0, users: 0, apiKeys: 0 });
  });

  const checkedWhileWriting: [string, Edit, string][] = [
    [
      'a field that runs off the side of its page',
      (seed) => Object.assign(seed.companies[0].templates[1].fields[1], { x: 500, width: 200 }),
      'companies[0].templates[1].fields[1]',
    ],
    [
      'a field that runs off the bottom of its page',
      (seed) => Object.assign(seed.companies[1].templates[0].fields[0], { y: 780 }),
      'companies[1].templates[0].fields[0]',
    ],
    ['a field on a page the document lacks', (seed) => (seed.companies[0].templates[0].fields[0].page = 3), 'companies[0].templates[0].fields[0].page'],
    [
      'a key whose owner is not a user of the company',
      (seed) => (seed.companies[1].api_keys[0].owner = 'nobody@globex.test'),
      'companies[1].api_keys[0].owner',
    ],
  ];

  it.each(checkedWhileWriting)('refuses %s with validation_failed naming the path', async (_label, edit, path) => {
    const seed = freshDemoSeed();
    edit(seed);
    const err = await failure(loadSeed(stack.services, seed, process.cwd()));
    expect(err.code).toBe('validation_failed');
    expect(issuePaths(err)).toEqual([path]);
  });

  it('refuses a file that is not JSON, naming the file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'esign-seed-'));
    try {
      await writeFile(join(folder, 'broken.json'), '{ "companies": [');
      await expect(loadSeedFile(stack.services, join(folder, 'broken.json'))).rejects.toThrow(/broken\.json is not JSON/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
