/**
 * The import's form read as it arrives: the PDF is handed to the document store while the body is
 * still coming, whichever part comes first, and every refusal (of the form, the template, the
 * company, the PDF) takes back what it stored. Bodies are written out by hand, in the order and
 * shape each case needs. Refusals keep nothing in the memory store; the file store of the
 * integration run keeps a refused PDF (its keys are shared by identical bytes: FileDocumentStore).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { templates } from '../../src/data/schema.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import type { DocumentStore } from '../../src/ports/document-store.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { expectError } from '../support/expect-error.js';
import { createTestCompany, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { type FormPart, multipartBody, multipartType as importContentType, paddedPdf } from '../support/multipart-body.js';
import { storedBytes } from '../support/stored-documents.js';
import { unique } from '../support/unique.js';

const MiB = 1024 * 1024;
const encoder = new TextEncoder();

let stack: TestStack;
let company: TestCompany;
let twoPages: Uint8Array;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
  twoPages = await generateDocument('Streamed import', 2, nodeFontSource());
});
afterAll(() => stack.close());

/** The two-page PDF with a comment of its own after it: bytes no other test stores, still the same PDF to a reader. */
const uniquePdf = (size = 0) => paddedPdf(twoPages, size);

const definition = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: `Streamed ${unique()}`,
    signing_order: 'parallel',
    roles: [{ name: 'Signer', type: 'signer', order: 1 }],
    fields: [{ role: 'Signer', type: 'signature', page: 1, x: 100, y: 100, width: 200, height: 40 }],
    ...overrides,
  });

const template = (content = definition()): FormPart => ({ name: 'template', content });
const document = (content: Uint8Array, fileName = 'contract.pdf'): FormPart => ({ name: 'document', fileName, content });

const multipartType = { 'content-type': importContentType };

const importInto = (companyId: string, body: Uint8Array | string | undefined, headers: Record<string, string> = multipartType): Promise<Answer> =>
  call(stack, 'POST', `/admin/v1/companies/${companyId}/templates`, { token: ADMIN_TOKEN, rawBody: body, headers });

const templateNames = async (companyId: string) =>
  (await stack.services.database.db.select({ name: templates.name }).from(templates).where(eq(templates.companyId, companyId))).map((row) => row.name);

/** Asserts that a refused import left neither rows nor, in the memory store, bytes. */
async function expectNothingStored(before: number, pdf?: Uint8Array) {
  expect(await templateNames(company.id)).toEqual([]);
  const store = stack.services.documents;
  if (!(store instanceof MemoryDocumentStore)) return;
  expect(store.count).toBe(before);
  if (pdf) expect(await store.get(await sha256Hex(pdf))).toBeNull();
}

const heldNow = () => (stack.services.documents instanceof MemoryDocumentStore ? stack.services.documents.count : 0);

describe('the import reads its form as it arrives', () => {
  it.each([
    ['after', false],
    ['before', true],
  ])('takes the document part %s the template part', async (_order, documentFirst) => {
    const importer = await createTestCompany(stack);
    const pdf = uniquePdf();
    const parts = documentFirst ? [document(pdf), template()] : [template(), document(pdf)];
    const answer = await importInto(importer.id, multipartBody(parts));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.document).toMatchObject({ file_name: 'contract.pdf', sha256: await sha256Hex(pdf), page_count: 2 });
    expect(await storedBytes(stack.services.documents, await sha256Hex(pdf))).toEqual(pdf);
  });

  it('hands the PDF to the store while the rest of the body is still to come', async () => {
    const importer = await createTestCompany(stack);
    const body = multipartBody([document(uniquePdf(4 * MiB)), template()]);
    // The body as a client sends it, 64 KiB at a time, each once asked for.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= body.byteLength) return controller.close();
        controller.enqueue(body.slice(sent, sent + 64 * 1024));
        sent += 64 * 1024;
      },
    });
    // What the client had sent when the store received the PDF's first bytes.
    let sentAtFirstBytes: number | undefined;
    const store = stack.services.documents;
    const watching: DocumentStore = {
      put: (source, options) => store.put(noticed(source as AsyncIterable<Uint8Array>), options),
      get: (key, range) => store.get(key, range),
      delete: (key) => store.delete(key),
      discard: (stored) => store.discard(stored),
    };
    async function* noticed(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        sentAtFirstBytes ??= sent;
        yield chunk;
      }
    }
    stack.services.documents = watching;
    try {
      const response = await stack.app.request(`/admin/v1/companies/${importer.id}/templates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...multipartType, 'content-length': String(body.byteLength) },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(response.status, await response.clone().text()).toBe(201);
    } finally {
      stack.services.documents = store;
    }
    expect(sentAtFirstBytes).toBeLessThan(MiB);
  });

  it('reads past parts of other names, a field or a file, as the form did', async () => {
    const importer = await createTestCompany(stack);
    const parts = [{ name: 'note', content: 'x' }, document(uniquePdf()), { name: 'scan', fileName: 'scan.pdf', content: uniquePdf() }, template()];
    const answer = await importInto(importer.id, multipartBody(parts));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });
});

describe('a refused import keeps nothing', () => {
  let takenId: string;
  beforeAll(async () => {
    const holder = await createTestCompany(stack);
    takenId = crypto.randomUUID();
    const answer = await importInto(holder.id, multipartBody([template(definition({ id: takenId })), document(uniquePdf())]));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });

  const offPage = { fields: [{ role: 'Signer', type: 'signature', page: 3, x: 100, y: 100, width: 200, height: 40 }] };
  it.each<[string, (pdf: Uint8Array) => FormPart[], number, string, string[]?]>([
    [
      'a field off its page, the document first',
      (pdf) => [document(pdf), template(definition(offPage))],
      422,
      'validation_failed',
      ['template.fields[0].page'],
    ],
    ['a field off its page, the document last', (pdf) => [template(definition(offPage)), document(pdf)], 422, 'validation_failed', ['template.fields[0].page']],
    ['a template that is not JSON', (pdf) => [document(pdf), template('{"name": ')], 422, 'validation_failed', ['template']],
    [
      'a template that breaks a rule',
      (pdf) => [document(pdf), template(definition({ signing_order: 'random' }))],
      422,
      'validation_failed',
      ['template.signing_order'],
    ],
    ['no template part', (pdf) => [document(pdf)], 422, 'validation_failed', ['template']],
    ['the template part twice', (pdf) => [template(), document(pdf), template()], 422, 'validation_failed', ['template']],
    ['the document part twice', (pdf) => [document(pdf), document(uniquePdf()), template()], 422, 'validation_failed', ['document']],
    [
      'the document part as a field',
      (pdf) => [template(), { name: 'document', content: new TextDecoder().decode(pdf) }],
      422,
      'validation_failed',
      ['document'],
    ],
    ['a template field past 1,000,000 characters', (pdf) => [document(pdf), template('x'.repeat(1_000_001))], 422, 'validation_failed', ['template']],
    [
      'a template file past 1,000,000 bytes',
      (pdf) => [document(pdf), { name: 'template', fileName: 't.json', content: `{"name":"${'x'.repeat(1_000_000)}"}` }],
      422,
      'validation_failed',
      ['template'],
    ],
    ['a file name with NUL', (pdf) => [template(), document(pdf, 'nda\u0000.pdf')], 422, 'validation_failed', ['document']],
    ['bytes that are not a PDF', () => [document(encoder.encode(`Not a PDF ${unique()}`)), template()], 422, 'invalid_document'],
    ['a template id already taken', (pdf) => [document(pdf), template(definition({ id: takenId }))], 409, 'conflict'],
  ])('%s', async (_label, parts, status, code, paths) => {
    const before = heldNow();
    const pdf = uniquePdf();
    expectError(await importInto(company.id, multipartBody(parts(pdf))), status, code, paths);
    await expectNothingStored(before, pdf);
  });

  it('an unknown company, the document first: 404 company_not_found', async () => {
    const before = heldNow();
    const pdf = uniquePdf();
    expectError(await importInto(crypto.randomUUID(), multipartBody([document(pdf), template()])), 404, 'company_not_found');
    await expectNothingStored(before, pdf);
  });

  it('a PDF past 25 MiB: 413 payload_too_large, after the form is judged', async () => {
    const before = heldNow();
    const pdf = uniquePdf(25 * MiB + 1);
    const body = multipartBody([document(pdf, 'big.pdf'), template()]);
    const answer = await importInto(company.id, body, { ...multipartType, 'content-length': String(body.byteLength) });
    expectError(answer, 413, 'payload_too_large');
    expect(answer.body.error.details).toMatchObject({ limit: '25 MiB', file_name: 'big.pdf' });
    await expectNothingStored(before, pdf);
    // A form refused for its own parts says so first, as a form read whole did.
    expectError(await importInto(company.id, multipartBody([document(pdf, 'big.pdf')])), 422, 'validation_failed', ['template']);
    await expectNothingStored(before, pdf);
  }, 60_000);

  it.each([
    ['inside the document', (body: Uint8Array, pdf: Uint8Array) => body.byteLength - Math.floor(pdf.byteLength / 2)],
    // The document's part is whole (and stored) before the form's end is found missing.
    ['after the document, before the form ends', (body: Uint8Array) => body.byteLength - 3],
  ])('a body cut off %s: 422 validation_failed', async (_where, cutAt) => {
    const before = heldNow();
    const pdf = uniquePdf();
    const body = multipartBody([template(), document(pdf)]);
    expectError(await importInto(company.id, body.slice(0, cutAt(body, pdf))), 422, 'validation_failed', ['']);
    await expectNothingStored(before, pdf);
  });

  it.each<[string, Uint8Array | string | undefined, Record<string, string>, string[]]>([
    ['a JSON body', '{}', { 'content-type': 'application/json' }, ['']],
    ['a body without a content type', encoder.encode('template=x'), {}, ['']],
    ['no body and no content type', undefined, {}, ['template', 'document']],
    [
      'a URL-encoded form (no file in it)',
      `template=${encodeURIComponent(definition())}&document=x`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      ['document'],
    ],
    ['a multipart type without its boundary', '--x--\r\n', { 'content-type': 'multipart/form-data' }, ['']],
  ])('%s: 422 validation_failed, as before the form was streamed', async (_label, body, headers, paths) => {
    expectError(await importInto(company.id, body, headers), 422, 'validation_failed', paths);
    expect(await templateNames(company.id)).toEqual([]);
  });
});
