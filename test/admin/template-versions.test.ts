/**
 * One file although long: a template's versions and archiving end to end (the admin API, the
 * API's read and send, the signing page and the finish), on one stack whose database takes
 * seconds to open.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, envelopeFields, envelopes, templateDocuments, templates } from '../../src/data/schema.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { resolveLink } from '../../src/domain/signing/resolve-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import type { SigningState } from '../../src/domain/signing/signing-state.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { expectError } from '../support/expect-error.js';
import { createTestCompany, createTestTemplate, ndaDefinition, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
let threePages: Uint8Array;
beforeAll(async () => {
  stack = await openStack();
  [company, other] = await Promise.all([createTestCompany(stack, { quota: 1000 }), createTestCompany(stack)]);
  threePages = await generateDocument('Version two', 3, nodeFontSource());
});
afterAll(() => stack.close());

const base = (companyId: string, templateId: string) => `/admin/v1/companies/${companyId}/templates/${templateId}`;
const admin = (method: 'GET' | 'POST', path: string, rawBody?: FormData) => call(stack, method, path, { token: ADMIN_TOKEN, rawBody });

/** The form of a new version: the template as JSON, and a PDF when one is given. */
function versionForm(template: unknown, document?: Uint8Array) {
  const form = new FormData();
  form.set('template', typeof template === 'string' ? template : JSON.stringify(template));
  if (document) form.set('document', new Blob([document as BlobPart], { type: 'application/pdf' }), 'v2.pdf');
  return form;
}

/** The NDA with the Client's signature moved down the page and onto page 3 when it has one. */
const movedDefinition = (name: string, page = 2) =>
  ndaDefinition({
    name,
    signing_order: 'parallel',
    fields: [
      { role: 'Client', type: 'signature', page, x: 300, y: 100, width: 150, height: 30, required: true },
      { role: 'Witness', type: 'signature', page: 2, x: 72, y: 700, width: 200, height: 40, required: true },
    ],
  });

const tag = () => unique();
async function send(templateId: string) {
  const t = tag();
  return call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: templateId,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${t}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${t}@example.test` },
      ],
    },
  });
}

const linksOf = (answer: { body: Record<string, unknown> }) =>
  (answer.body.signing_urls as { signing_url: string | null }[]).filter((entry) => entry.signing_url).map((entry) => entry.signing_url!.split('/sign/')[1]!);

function completeForm(state: SigningState) {
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  return { consent: true, values: Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : state.recipient.name])) };
}

async function signAll(links: string[]) {
  for (const token of links) {
    const state = await bySigner(stack.services, testSigner, openSigningLink, { token });
    await bySigner(stack.services, testSigner, signAsRecipient, { token, submission: completeForm(state) });
  }
}

const fieldsOf = (envelopeId: string) =>
  stack.services.database.db
    .select({ page: envelopeFields.page, x: envelopeFields.x, y: envelopeFields.y })
    .from(envelopeFields)
    .where(eq(envelopeFields.envelopeId, envelopeId))
    .orderBy(asc(envelopeFields.page), asc(envelopeFields.y));

const envelopeRow = async (envelopeId: string) => (await stack.services.database.db.select().from(envelopes).where(eq(envelopes.id, envelopeId)))[0]!;

describe('a new version', () => {
  it('changes the template the API reads and what new sends take, while a v1 envelope signs and finishes with v1', async () => {
    const v1 = await createTestTemplate(stack, company.id, { signing_order: 'parallel' });
    const sent = await send(v1.id);
    expect(sent.status).toBe(201);
    const envelopeId = sent.body.envelope_id as string;
    const v1Fields = await fieldsOf(envelopeId);

    const saved = await admin('POST', `${base(company.id, v1.id)}/versions`, versionForm(movedDefinition('NDA v2', 3), threePages));
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.id).toBe(v1.id);
    expect(saved.body.version).toBe(2);
    expect(saved.body.document.sha256).toBe(await sha256Hex(threePages));
    expect(saved.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(saved.body.versions[0]).toMatchObject({ saved_by: { type: 'admin' }, role_count: 3, field_count: 2 });

    // The API's read is the latest version; the id is the same.
    const read = await call(stack, 'GET', `/v1/templates/${v1.id}`, { token: company.owner.token });
    expect(read.body).toMatchObject({ name: 'NDA v2', document: { page_count: 3, sha256: await sha256Hex(threePages) } });
    expect(read.body.fields.find((field: { role: string }) => field.role === 'Client')).toMatchObject({ page: 3, x: 300, y: 100 });

    // The v1 envelope keeps v1: its row, its fields, its signing page's document.
    const before = await envelopeRow(envelopeId);
    expect(before.templateVersion).toBe(1);
    expect(before.documentSha256).toBe(v1.document!.sha256);
    expect(v1.document!.sha256).not.toBe(await sha256Hex(threePages));
    expect(await fieldsOf(envelopeId)).toEqual(v1Fields);
    const link = await resolveLink(stack.services, linksOf(sent)[0]!);
    expect(link!.pages).toHaveLength(2);

    // It signs and finishes: the finish refuses a document that is not the one sent, so v1's was used.
    await signAll(linksOf(sent));
    await vi.waitFor(async () => expect((await envelopeRow(envelopeId)).signedDocumentSha256).toMatch(/^[0-9a-f]{64}$/), { timeout: 20_000 });
    expect((await envelopeRow(envelopeId)).status).toBe('completed');

    // A new send takes v2: its document, its moved field, and its audit row names the version.
    const next = await send(v1.id);
    expect(next.status).toBe(201);
    const nextId = next.body.envelope_id as string;
    expect(await envelopeRow(nextId)).toMatchObject({ templateVersion: 2, documentSha256: await sha256Hex(threePages) });
    expect((await fieldsOf(nextId)).at(-1)).toEqual({ page: 3, x: 300, y: 100 });
    const [sentRow] = await stack.services.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, nextId), eq(auditEvents.kind, 'envelope.sent')));
    expect(sentRow!.data).toMatchObject({ template_id: v1.id, template_version: 2 });
    const [firstSent] = await stack.services.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.kind, 'envelope.sent')));
    expect(firstSent!.data).toMatchObject({ template_version: 1 });
  });

  it('keeps the current document when the form has none, and records the save', async () => {
    const v1 = await createTestTemplate(stack, company.id, { signing_order: 'parallel' });
    const kept = movedDefinition('Kept');
    const withNumber = {
      ...kept,
      id: v1.id,
      fields: [...kept.fields, { role: 'Client', type: 'number', page: 1, x: 10, y: 10, width: 50, height: 20, min: 1, max: 9 }],
    };
    const saved = await admin('POST', `${base(company.id, v1.id)}/versions`, versionForm(withNumber));
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body).toMatchObject({ version: 2, document: { sha256: v1.document!.sha256, file_name: 'nda.pdf' } });
    expect(saved.body.fields.find((field: { type: string }) => field.type === 'number')).toMatchObject({ settings: { min: 1, max: 9 } });
    const rows = await stack.services.database.db.select().from(templateDocuments).where(eq(templateDocuments.templateId, v1.id));
    expect(rows.map((row) => [row.version, row.storageKey])).toEqual(
      expect.arrayContaining([
        [1, rows[0]!.storageKey],
        [2, rows[0]!.storageKey],
      ]),
    );
    const audit = await stack.services.database.db.select().from(auditEvents).where(eq(auditEvents.kind, 'template.version_saved'));
    expect(audit.find((row) => row.data.template_id === v1.id)).toMatchObject({ actorType: 'admin', data: { version: 2, name: 'Kept' } });
    expect(saved.body.versions[0]).toMatchObject({ version: 2, field_count: 3 });
    // A v2 with the same document still sends, with the moved field.
    const next = await send(v1.id);
    expect(next.status).toBe(201);
    expect((await fieldsOf(next.body.envelope_id as string)).some((field) => field.x === 300 && field.y === 100)).toBe(true);
  });

  it('refuses a bad body with 422 and saves nothing', async () => {
    const v1 = await createTestTemplate(stack, company.id);
    const path = `${base(company.id, v1.id)}/versions`;
    const cases: [FormData, string][] = [
      [versionForm('{not json'), 'template'],
      [versionForm({ ...movedDefinition('Off'), roles: [] }), 'template.roles'],
      // Page 3 of a two-page document: no new document, the kept one has two.
      [versionForm(movedDefinition('Off page', 3)), 'template.fields[0].page'],
      [versionForm({ ...movedDefinition('Other id'), id: crypto.randomUUID() }), 'template.id'],
      [versionForm(movedDefinition('Not a PDF'), new TextEncoder().encode('not a pdf')), ''],
    ];
    for (const [form, path_] of cases) {
      const answer = await admin('POST', path, form);
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      if (path_) expect(JSON.stringify(answer.body.error.details), path_).toContain(path_);
    }
    const noTemplate = new FormData();
    expectError(await admin('POST', path, noTemplate), 422, 'validation_failed');
    const [row] = await stack.services.database.db.select().from(templates).where(eq(templates.id, v1.id));
    expect(row!.version).toBe(1);
    expect(await stack.services.database.db.select().from(templateDocuments).where(eq(templateDocuments.templateId, v1.id))).toHaveLength(1);
  });
});

describe('the admin API of templates', () => {
  it('lists a company’s templates, newest first, paginated, and reads one with its versions', async () => {
    const first = await createTestTemplate(stack, other.id);
    const second = await createTestTemplate(stack, other.id);
    const list = await admin('GET', `/admin/v1/companies/${other.id}/templates?per_page=1`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.pagination.total).toBe(2);
    const both = await admin('GET', `/admin/v1/companies/${other.id}/templates`);
    expect(both.body.data.map((t: { id: string }) => t.id).sort()).toEqual([first.id, second.id].sort());
    const read = await admin('GET', base(other.id, first.id));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: first.id, version: 1, versions: [{ version: 1, saved_by: { type: 'admin' }, role_count: 3, field_count: 2 }] });
  });

  it('answers another company’s, an unknown or malformed template 404 template_not_found on every route, and an unknown company 404', async () => {
    const mine = await createTestTemplate(stack, company.id);
    for (const id of [mine.id, crypto.randomUUID(), 'not-a-uuid']) {
      expectError(await admin('GET', base(other.id, id)), 404, 'template_not_found');
      expectError(await admin('POST', `${base(other.id, id)}/versions`, versionForm(movedDefinition('x'))), 404, 'template_not_found');
      expectError(await admin('POST', `${base(other.id, id)}/archive`), 404, 'template_not_found');
    }
    const nobody = crypto.randomUUID();
    expectError(await admin('GET', `/admin/v1/companies/${nobody}/templates`), 404, 'company_not_found');
    expectError(await admin('GET', base(nobody, mine.id)), 404, 'company_not_found');
    expectError(await admin('POST', `${base(nobody, mine.id)}/archive`), 404, 'company_not_found');
    // Nothing of the company's changed.
    const [row] = await stack.services.database.db.select().from(templates).where(eq(templates.id, mine.id));
    expect(row).toMatchObject({ version: 1, archivedAt: null });
    expect((await call(stack, 'GET', base(company.id, mine.id), {})).status).toBe(401);
  });
});

describe('archiving', () => {
  it('takes the template out of the read, the list and sends, and its sent envelope still finishes', async () => {
    const template = await createTestTemplate(stack, company.id, { signing_order: 'parallel' });
    const sent = await send(template.id);
    expect(sent.status).toBe(201);

    const archived = await admin('POST', `${base(company.id, template.id)}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.template_id).toBe(template.id);

    expectError(await call(stack, 'GET', `/v1/templates/${template.id}`, { token: company.owner.token }), 404, 'template_not_found');
    expectError(await send(template.id), 404, 'template_not_found');
    const list = await call(stack, 'GET', '/v1/templates?per_page=100', { token: company.owner.token });
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(template.id);
    expectError(await admin('GET', base(company.id, template.id)), 404, 'template_not_found');
    expectError(await admin('POST', `${base(company.id, template.id)}/archive`), 404, 'template_not_found');
    expectError(await admin('POST', `${base(company.id, template.id)}/versions`, versionForm(movedDefinition('Late'))), 404, 'template_not_found');
    const rows = await stack.services.database.db.select().from(auditEvents).where(eq(auditEvents.kind, 'template.archived'));
    expect(rows.filter((row) => row.data.template_id === template.id)).toHaveLength(1);

    const envelopeId = sent.body.envelope_id as string;
    await signAll(linksOf(sent));
    await vi.waitFor(async () => expect((await envelopeRow(envelopeId)).signedDocumentSha256).toMatch(/^[0-9a-f]{64}$/), { timeout: 20_000 });
  });
});
