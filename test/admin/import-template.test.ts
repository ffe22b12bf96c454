/**
 * One file although long: one endpoint's every accepted and refused template; the behaviours share
 * one stack, whose embedded database takes seconds to open, and the factories of this subject.
 */
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, templateDocuments, templateFields, templateRoles, templates } from '../../src/data/schema.js';
import { fieldTypes } from '../../src/domain/templates/template-definition.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { createTestCompany, ndaDefinition, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';
import { expectError } from '../support/expect-error.js';
import { storedBytes } from '../support/stored-documents.js';

const MiB = 1024 * 1024;

let stack: TestStack;
let twoPages: Uint8Array;
beforeAll(async () => {
  stack = await openStack();
  twoPages = await generateDocument('Import', 2, nodeFontSource());
});
afterAll(() => stack.close());

type Definition = Record<string, unknown>;

/** The multipart form of an import: the template as JSON (or raw text) and the PDF; null leaves a part out. */
function importForm(template: Definition | string | null, document: Uint8Array | string | null = twoPages, fileName = 'contract.pdf') {
  const form = new FormData();
  if (template !== null) form.set('template', typeof template === 'string' ? template : JSON.stringify(template));
  if (typeof document === 'string') form.set('document', document);
  else if (document) form.set('document', new Blob([document as BlobPart], { type: 'application/pdf' }), fileName);
  return form;
}

const importInto = (companyId: string, form: FormData | Uint8Array, headers: Record<string, string> = {}): Promise<Answer> =>
  call(stack, 'POST', `/admin/v1/companies/${companyId}/templates`, { token: ADMIN_TOKEN, rawBody: form, headers });

const templatesOf = (companyId: string) => stack.services.database.db.select().from(templates).where(eq(templates.companyId, companyId));

/** One signer role and one field, small enough to bend for each rule. */
const oneSigner = (overrides: Definition = {}): Definition => ({
  name: `One signer ${unique()}`,
  signing_order: 'parallel',
  roles: [{ name: 'Signer', type: 'signer', order: 1 }],
  fields: [{ role: 'Signer', type: 'signature', page: 1, x: 100, y: 100, width: 200, height: 40 }],
  ...overrides,
});

const field = (overrides: Record<string, unknown> = {}) => ({
  role: 'Signer',
  type: 'signature',
  page: 1,
  x: 100,
  y: 100,
  width: 200,
  height: 40,
  ...overrides,
});

describe('POST /admin/v1/companies/{companyId}/templates', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });

  it('imports the PDF with its roles and fields, answers 201 with the template, and stores it all', async () => {
    const definition = ndaDefinition();
    const answer = await importInto(company.id, importForm(definition, twoPages, 'mutual-nda.pdf'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: definition.name,
      email_subject: 'Please sign the NDA',
      expiry_days: 30,
      reminders: { first_after_days: 2, every_days: 3 },
      signing_order: 'sequential',
      share_signing_links: true,
      roles: [
        { name: 'Client', type: 'signer', order: 1, locked: false, recipient: null },
        { name: 'Witness', type: 'signer', order: 2, locked: false, recipient: null },
        { name: 'Counsel', type: 'cc', order: 3, locked: true, recipient: { name: 'Carl Counsel', email: 'counsel@example.test' } },
      ],
      fields: [
        { role: 'Client', type: 'signature', label: null, page: 2, x: 72, y: 640, width: 200, height: 40, required: true },
        { role: 'Witness', type: 'signature', label: null, page: 2, x: 72, y: 700, width: 200, height: 40, required: true },
      ],
      document: {
        file_name: 'mutual-nda.pdf',
        sha256: await sha256Hex(twoPages),
        page_count: 2,
        pages: [
          { width: 612, height: 792 },
          { width: 612, height: 792 },
        ],
      },
    });
    expect(JSON.stringify(answer.body)).not.toContain('content');

    const { db } = stack.services.database;
    const id = answer.body.id as string;
    expect((await db.select().from(templates).where(eq(templates.id, id)))[0]).toMatchObject({ companyId: company.id, name: definition.name });
    const [document] = await db.select().from(templateDocuments).where(eq(templateDocuments.templateId, id));
    expect(document?.fileName).toBe('mutual-nda.pdf');
    expect(document).toMatchObject({ content: null, size: twoPages.byteLength, sha256: await sha256Hex(twoPages) });
    expect(Buffer.from(await storedBytes(stack.services.documents, document!.storageKey!)).equals(Buffer.from(twoPages))).toBe(true);
    expect(await db.select().from(templateRoles).where(eq(templateRoles.templateId, id))).toHaveLength(3);
    expect(await db.select().from(templateFields).where(eq(templateFields.templateId, id))).toHaveLength(2);
    const audit = (await db.select().from(auditEvents).where(eq(auditEvents.companyId, company.id))).filter((event) => event.data.template_id === id);
    expect(audit.map((event) => [event.kind, event.actorType])).toEqual([['template.imported', 'admin']]);
  });

  it('imports the example of examples/ (every field type, on the PDF made for it) as the admin guide shows', async () => {
    const example = await readFile(new URL('../../examples/service-agreement.json', import.meta.url), 'utf8');
    const pdf = await readFile(new URL('../../examples/service-agreement.pdf', import.meta.url));
    const form = new FormData();
    form.set('template', new Blob([example], { type: 'application/json' }), 'service-agreement.json');
    form.set('document', new Blob([pdf], { type: 'application/pdf' }), 'service-agreement.pdf');
    const answer = await importInto(company.id, form);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const types = new Set((answer.body.fields as { type: string }[]).map((field) => field.type));
    expect([...types].sort()).toEqual([...fieldTypes].sort());
    expect(answer.body.document).toMatchObject({ file_name: 'service-agreement.pdf', page_count: 2 });
  });

  it("shows the template at GET /v1/templates/{id} to the company's key, and to no other company", async () => {
    const answer = await importInto(company.id, importForm(ndaDefinition()));
    expect(answer.status).toBe(201);
    const seen = await call(stack, 'GET', `/v1/templates/${answer.body.id}`, { token: company.owner.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual(answer.body);

    const other = await createTestCompany(stack);
    expectError(await call(stack, 'GET', `/v1/templates/${answer.body.id}`, { token: other.owner.token }), 404, 'template_not_found');
    expect((await call(stack, 'GET', '/v1/templates', { token: other.owner.token })).body.data).toEqual([]);
  });

  it('fills the defaults: no fields, links not shared, settings null', async () => {
    const answer = await importInto(company.id, importForm(oneSigner({ fields: undefined })));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ fields: [], share_signing_links: false, email_subject: null, expiry_days: null, reminders: null });
    expect(answer.body.roles).toEqual([
      { name: 'Signer', type: 'signer', order: 1, locked: false, recipient: null, verification: 'none', contact_number_required: false },
    ]);
  });

  it('keeps a given id, and refuses a second import with it as 409 conflict', async () => {
    const id = crypto.randomUUID();
    const first = await importInto(company.id, importForm(oneSigner({ id, name: 'First' })));
    expect(first.status).toBe(201);
    expect(first.body.id).toBe(id);
    const again = await importInto(company.id, importForm(oneSigner({ id, name: 'Second' })));
    expectError(again, 409, 'conflict');
    const stored = await stack.services.database.db.select().from(templates).where(eq(templates.id, id));
    expect(stored.map((row) => row.name)).toEqual(['First']);
  });

  it('accepts fields that touch the right and bottom edges of a page', async () => {
    const answer = await importInto(
      company.id,
      importForm(oneSigner({ fields: [field({ page: 2, x: 412, width: 200 }), field({ page: 2, y: 752, height: 40 }), field({ x: 0, y: 0 })] })),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.fields).toHaveLength(3);
  });

  it.each<[string, Definition]>([
    ['a role name of 25 characters', oneSigner({ roles: [{ name: 'r'.repeat(25), type: 'signer', order: 1 }], fields: [field({ role: 'r'.repeat(25) })] })],
    ['a template name of 250 characters', oneSigner({ name: 't'.repeat(250) })],
    ['expiry_days 365', oneSigner({ expiry_days: 365 })],
    ['expiry_days 1', oneSigner({ expiry_days: 1 })],
    ['50 roles', oneSigner({ roles: Array.from({ length: 50 }, (_, i) => ({ name: `Role ${i}`, type: 'signer', order: i + 1 })), fields: [] })],
    ['500 fields', oneSigner({ fields: Array.from({ length: 500 }, () => field()) })],
    ['role order 50', oneSigner({ roles: [{ name: 'Signer', type: 'signer', order: 50 }] })],
    [
      'a locked cc role with its recipient',
      oneSigner({
        roles: [
          { name: 'Signer', type: 'signer', order: 1 },
          { name: 'Copy', type: 'cc', order: 2, locked: true, recipient: { name: 'Cy', email: 'cy@example.test' } },
        ],
      }),
    ],
  ])('accepts %s', async (_label, definition) => {
    const answer = await importInto(company.id, importForm(definition));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const stored = await stack.services.database.db.select().from(templates).where(eq(templates.id, answer.body.id));
    expect(stored.map((row) => row.name)).toEqual([definition.name]);
  });
});

describe('import refusals: nothing is stored', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });

  async function expectRefused(form: FormData | Uint8Array, status: number, code: string, paths?: string[], headers?: Record<string, string>) {
    const answer = await importInto(company.id, form, headers);
    expectError(answer, status, code, paths);
    expect(await templatesOf(company.id)).toEqual([]);
    return answer;
  }

  it.each<[string, Definition, string[]]>([
    ['a field running off the right edge (x + width = 613)', oneSigner({ fields: [field({ x: 413, width: 200 })] }), ['template.fields[0]']],
    ['a field running off the bottom (y + height = 793)', oneSigner({ fields: [field({ y: 753, height: 40 })] }), ['template.fields[0]']],
    ['a field on page 3 of a 2-page PDF', oneSigner({ fields: [field({ page: 3 })] }), ['template.fields[0].page']],
    [
      'several misplaced fields, each named',
      oneSigner({ fields: [field({ page: 3 }), field(), field({ x: 600 })] }),
      ['template.fields[0].page', 'template.fields[2]'],
    ],
  ])('refuses %s with 422 validation_failed', async (_label, definition, paths) => {
    await expectRefused(importForm(definition), 422, 'validation_failed', paths);
  });

  it('says how large the page is when a field runs off it', async () => {
    const answer = await expectRefused(importForm(oneSigner({ fields: [field({ x: 413 })] })), 422, 'validation_failed');
    expect(answer.body.error.details.issues[0].message).toContain('612');
  });

  it.each<[string, Definition, string[]]>([
    ['a field for a role not in the template', oneSigner({ fields: [field({ role: 'Stranger' })] }), ['template.fields[0].role']],
    [
      'a field for a cc role',
      oneSigner({
        roles: [
          { name: 'Signer', type: 'signer', order: 1 },
          { name: 'Copy', type: 'cc', order: 2 },
        ],
        fields: [field({ role: 'Copy' })],
      }),
      ['template.fields[0].role'],
    ],
    ['a locked role without a recipient', oneSigner({ roles: [{ name: 'Signer', type: 'signer', order: 1, locked: true }] }), ['template.roles[0].recipient']],
    [
      'an unlocked role with a recipient',
      oneSigner({ roles: [{ name: 'Signer', type: 'signer', order: 1, recipient: { name: 'S', email: 's@example.test' } }] }),
      ['template.roles[0].recipient'],
    ],
    [
      'duplicate role names',
      oneSigner({
        roles: [
          { name: 'Signer', type: 'signer', order: 1 },
          { name: 'Signer', type: 'signer', order: 2 },
        ],
      }),
      ['template.roles[1].name'],
    ],
    ['no signer role', oneSigner({ roles: [{ name: 'Signer', type: 'cc', order: 1 }], fields: [] }), ['template.roles']],
    ['no roles (one issue, not two)', oneSigner({ roles: [], fields: [] }), ['template.roles']],
    ['a role name of 26 characters', oneSigner({ roles: [{ name: 'r'.repeat(26), type: 'signer', order: 1 }], fields: [] }), ['template.roles[0].name']],
    ['a blank role name', oneSigner({ roles: [{ name: '  ', type: 'signer', order: 1 }], fields: [] }), ['template.roles[0].name']],
    ['a template name of 251 characters', oneSigner({ name: 't'.repeat(251) }), ['template.name']],
    ['a missing template name', oneSigner({ name: undefined }), ['template.name']],
    ['expiry_days 366', oneSigner({ expiry_days: 366 }), ['template.expiry_days']],
    ['expiry_days 0', oneSigner({ expiry_days: 0 }), ['template.expiry_days']],
    ['role order 51', oneSigner({ roles: [{ name: 'Signer', type: 'signer', order: 51 }] }), ['template.roles[0].order']],
    ['role order 0', oneSigner({ roles: [{ name: 'Signer', type: 'signer', order: 0 }] }), ['template.roles[0].order']],
    ['an unknown signing order', oneSigner({ signing_order: 'random' }), ['template.signing_order']],
    ['an unknown role type', oneSigner({ roles: [{ name: 'Signer', type: 'approver', order: 1 }], fields: [] }), ['template.roles[0].type']],
    [
      '51 roles',
      oneSigner({ roles: Array.from({ length: 51 }, (_, i) => ({ name: `Role ${i}`, type: 'signer', order: (i % 50) + 1 })), fields: [] }),
      ['template.roles'],
    ],
    ['501 fields', oneSigner({ fields: Array.from({ length: 501 }, () => field()) }), ['template.fields']],
    ['a field on page 0', oneSigner({ fields: [field({ page: 0 })] }), ['template.fields[0].page']],
    ['a field of width 0', oneSigner({ fields: [field({ width: 0 })] }), ['template.fields[0].width']],
    ['a field at a negative x', oneSigner({ fields: [field({ x: -1 })] }), ['template.fields[0].x']],
    ['a field at a fractional y', oneSigner({ fields: [field({ y: 10.5 })] }), ['template.fields[0].y']],
    ['an unknown field type', oneSigner({ fields: [field({ type: 'stamp' })] }), ['template.fields[0].type']],
    [
      'unknown keys at every level',
      oneSigner({ folder: 'x', roles: [{ name: 'Signer', type: 'signer', order: 1, colour: 'red' }], fields: [field({ font: 'Arial' })] }),
      ['template.folder', 'template.roles[0].colour', 'template.fields[0].font'],
    ],
    ['a malformed id', oneSigner({ id: 'template-1' }), ['template.id']],
  ])('refuses %s with 422 validation_failed naming the path', async (_label, definition, paths) => {
    await expectRefused(importForm(definition), 422, 'validation_failed', paths);
  });

  it.each<[string, Uint8Array]>([
    ['bytes that are not a PDF', new TextEncoder().encode('Just some text, not a document.')],
    ['a PDF header followed by junk', new TextEncoder().encode('%PDF-1.7\nnot really a pdf')],
    ['a PNG', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])],
  ])('refuses %s with 422 invalid_document', async (_label, bytes) => {
    const answer = await expectRefused(importForm(oneSigner(), bytes, 'scan.pdf'), 422, 'invalid_document');
    expect(answer.body.error.details).toEqual({ file_name: 'scan.pdf' });
  });

  it.each<[string, string, string[]]>([
    ['not JSON', '{"name": "Broken", ', ['template']],
    ['empty', '', ['template']],
    ['a JSON array', '[]', ['template']],
    ['a JSON string', '"NDA"', ['template']],
  ])('refuses a template part that is %s with 422 validation_failed', async (_label, template, paths) => {
    await expectRefused(importForm(template), 422, 'validation_failed', paths);
  });

  it('refuses a form without the document part, or with text in its place', async () => {
    await expectRefused(importForm(oneSigner(), null), 422, 'validation_failed', ['document']);
    await expectRefused(importForm(oneSigner(), '%PDF-1.7 as text'), 422, 'validation_failed', ['document']);
  });

  it('takes the template part as a file too, as curl sends `-F template=@template.json`', async () => {
    const definition = oneSigner();
    const form = importForm(null);
    form.set('template', new Blob([JSON.stringify(definition)], { type: 'application/json' }), 'template.json');
    // A company of its own: the refusals around it expect theirs to stay without templates.
    const importer = await createTestCompany(stack);
    const answer = await importInto(importer.id, form);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ name: definition.name, roles: [{ name: 'Signer' }], fields: [{ role: 'Signer', type: 'signature' }] });
    expect((await templatesOf(importer.id)).map((row) => row.name)).toEqual([definition.name]);
  });

  it.each<[string, BlobPart, string[]]>([
    ['not JSON', '{"name": "Broken", ', ['template']],
    ['empty', '', ['template']],
    ['text with a NUL character', '{"name":"A\u0000"}', ['template']],
    ['bytes that are not UTF-8', Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]), ['template']],
    ['over 1,000,000 bytes', `{"name":"${'x'.repeat(1_000_000)}"}`, ['template']],
  ])('refuses a template file that is %s with 422 validation_failed', async (_label, content, paths) => {
    const form = importForm(null);
    form.set('template', new Blob([content], { type: 'application/json' }), 'template.json');
    await expectRefused(form, 422, 'validation_failed', paths);
  });

  it('refuses a file of a template whose definition breaks the rules, with paths under template', async () => {
    const form = importForm(null);
    form.set('template', new Blob([JSON.stringify(oneSigner({ signing_order: 'random' }))]), 'template.json');
    await expectRefused(form, 422, 'validation_failed', ['template.signing_order']);
  });

  it('refuses a form without the template part', async () => {
    await expectRefused(importForm(null), 422, 'validation_failed', ['template']);
  });

  it('refuses a JSON body in place of the form with 422 validation_failed', async () => {
    const answer = await call(stack, 'POST', `/admin/v1/companies/${company.id}/templates`, { token: ADMIN_TOKEN, body: oneSigner() });
    expectError(answer, 422, 'validation_failed');
    expect(await templatesOf(company.id)).toEqual([]);
  });

  it('answers an unknown or malformed company with 404 company_not_found', async () => {
    for (const companyId of [crypto.randomUUID(), 'acme']) {
      const name = `Orphan ${unique()}`;
      expectError(await importInto(companyId, importForm(oneSigner({ name }))), 404, 'company_not_found');
      expect(await stack.services.database.db.select().from(templates).where(eq(templates.name, name))).toEqual([]);
    }
  });
});

describe('import size limit: a PDF of 25 MiB, a request body of 27 MiB', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });

  const boundary = 'admin-test-boundary-7f3a9c';
  const PDF_LIMIT = 25 * MiB;

  /** The two-page PDF padded with a trailing comment to exactly `size` bytes. */
  function pdfOfSize(size: number) {
    const pdf = new Uint8Array(size);
    pdf.set(twoPages);
    pdf.fill(0x25 /* % */, twoPages.length, twoPages.length + 1);
    pdf.fill(0x78 /* x */, twoPages.length + 1);
    return pdf;
  }

  /** The multipart body of an import of `pdf`, padded (in its template part's JSON) to `size` bytes when given. */
  function multipartOf(pdf: Uint8Array, definition: Definition) {
    const encoder = new TextEncoder();
    const head = encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="template"\r\n\r\n${JSON.stringify(definition)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
    const body = new Uint8Array(head.length + pdf.length + tail.length);
    body.set(head);
    body.set(pdf, head.length);
    body.set(tail, head.length + pdf.length);
    return body;
  }

  const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };

  it('accepts a PDF of exactly 25 MiB', async () => {
    const body = multipartOf(pdfOfSize(PDF_LIMIT), oneSigner());
    const answer = await importInto(company.id, body, { ...multipart, 'content-length': String(body.length) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.document).toMatchObject({ file_name: 'big.pdf', page_count: 2 });
    const [document] = await stack.services.database.db
      .select({ size: templateDocuments.size, key: templateDocuments.storageKey })
      .from(templateDocuments)
      .where(eq(templateDocuments.templateId, answer.body.id));
    expect(document?.size).toBe(PDF_LIMIT);
    expect((await stack.services.documents.get(document!.key!))?.size).toBe(PDF_LIMIT);
  }, 180_000);

  it('refuses a PDF one byte more with 413 payload_too_large, the limit in its details', async () => {
    const body = multipartOf(pdfOfSize(PDF_LIMIT + 1), oneSigner({ name: 'PDF too big' }));
    const answer = await importInto(company.id, body, { ...multipart, 'content-length': String(body.length) });
    expectError(answer, 413, 'payload_too_large');
    expect(answer.body.error.details).toMatchObject({ limit: '25 MiB', max_bytes: PDF_LIMIT, file_name: 'big.pdf' });
    expect((await templatesOf(company.id)).map((row) => row.name)).not.toContain('PDF too big');
  }, 180_000);

  it('refuses a body over 27 MiB with 413 payload_too_large, streamed or with its length declared', async () => {
    const definition = oneSigner({ name: 'Too big' });
    const overhead = multipartOf(new Uint8Array(0), definition).length;
    const body = multipartOf(pdfOfSize(27 * MiB + 1 - overhead), definition);
    expect(body.length).toBe(27 * MiB + 1);
    for (const headers of [multipart, { ...multipart, 'content-length': String(body.length) }]) {
      const answer = await importInto(company.id, body, headers);
      expectError(answer, 413, 'payload_too_large');
      expect(answer.body.error.details).toMatchObject({ limit: '27 MiB' });
    }
    expect((await templatesOf(company.id)).map((row) => row.name)).not.toContain('Too big');
  });
});
