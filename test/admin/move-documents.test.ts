/**
 * The move of documents kept the old way (bytea in Postgres) into the document store, on a
 * database with documents in it: rows written as before the store, moved a row at a time, each
 * readable from the store with the same SHA-256 and its bytea emptied; a second run, and two runs
 * at once, change nothing more; the signing page, the download link and the finishing job work on
 * the moved rows; a read that meets a row not moved yet moves it.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes, templateDocuments } from '../../src/data/schema.js';
import { moveDocuments } from '../../src/domain/documents/move-documents.js';
import { housekeeping } from '../../src/outbox/housekeeping.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { documentDownloadUrl } from '../../src/domain/webhooks/document-link.js';
import { drained } from '../support/drained.js';
import { createTestCompany, createTestTemplate, sendTestEnvelope, type TestCompany, type TestLink } from '../support/factories.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { finishedPdf, storedBytes } from '../support/stored-documents.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let stack: TestStack;
let company: TestCompany;
/** Out for signing, its template's document kept the old way. */
let out: { envelopeId: string; links: TestLink[] };
/** Completed, its finished PDF kept the old way. */
let done: { envelopeId: string; finished: Uint8Array };
/** The template documents as they were, by row id. */
const originals = new Map<string, Uint8Array>();

/** Every envelope's template document and the finished one of `done`, as rows written before the store. */
async function keptTheOldWay() {
  const { db } = stack.services.database;
  const rows = await db.select().from(templateDocuments).where(eq(templateDocuments.companyId, company.id));
  for (const row of rows) {
    // A PDF of its own (a trailing comment tells it apart), which no store holds yet: only the move can put it there.
    const stored = await storedBytes(stack.services.documents, row.storageKey!);
    const bytes = new Uint8Array([...stored, ...new TextEncoder().encode(`%${crypto.randomUUID()}\n`)]);
    originals.set(row.id, bytes);
    expect(await stack.services.documents.get(sha256(bytes))).toBeNull();
    await db
      .update(templateDocuments)
      .set({ content: bytes, storageKey: null, size: null, sha256: sha256(bytes) })
      .where(eq(templateDocuments.id, row.id));
    // The envelopes were sent with this document: the finishing job checks that they still name it.
    await db
      .update(envelopes)
      .set({ documentSha256: sha256(bytes) })
      .where(eq(envelopes.templateId, row.templateId));
  }
  await db
    .update(envelopes)
    .set({ status: 'completed', signedDocument: done.finished, signedDocumentSha256: sha256(done.finished) })
    .where(eq(envelopes.id, done.envelopeId));
}

const oldRowsOf = async () => {
  const { db } = stack.services.database;
  const [templates, finished] = await Promise.all([
    db
      .select({ id: templateDocuments.id })
      .from(templateDocuments)
      .where(and(eq(templateDocuments.companyId, company.id), isNotNull(templateDocuments.content))),
    db
      .select({ id: envelopes.id })
      .from(envelopes)
      .where(and(eq(envelopes.companyId, company.id), isNotNull(envelopes.signedDocument))),
  ]);
  return templates.length + finished.length;
};

beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 10 });
  out = await sendTestEnvelope(stack, company);
  const completed = await sendTestEnvelope(stack, company);
  done = { envelopeId: completed.envelopeId, finished: new TextEncoder().encode(`%PDF-1.7 finished before the store ${crypto.randomUUID()}`) };
  await keptTheOldWay();
}, 60_000);
afterAll(() => stack.close());

describe('moving documents out of Postgres', () => {
  it('moves every document into the store with the same SHA-256 and empties its bytea; two runs at once and a third change nothing more', async () => {
    expect(await oldRowsOf()).toBe(originals.size + 1);
    const runs = await Promise.all([moveDocuments(stack.services), moveDocuments(stack.services)]);
    expect(await oldRowsOf()).toBe(0);
    // Each row is moved by one run; the other skips it.
    expect(runs[0]!.moved + runs[1]!.moved).toBeGreaterThanOrEqual(originals.size + 1);

    const { db } = stack.services.database;
    const rows = await db
      .select()
      .from(templateDocuments)
      .where(inArray(templateDocuments.id, [...originals.keys()]));
    for (const row of rows) {
      expect(row).toMatchObject({ content: null, size: originals.get(row.id)!.byteLength, sha256: sha256(originals.get(row.id)!) });
      expect(sha256(await storedBytes(stack.services.documents, row.storageKey!))).toBe(row.sha256);
    }
    const [envelope] = await db.select().from(envelopes).where(eq(envelopes.id, done.envelopeId));
    expect(envelope).toMatchObject({ signedDocument: null, signedDocumentSize: done.finished.byteLength, signedDocumentSha256: sha256(done.finished) });
    expect(sha256((await finishedPdf(stack.services, done.envelopeId))!)).toBe(sha256(done.finished));

    const before = await db.select().from(templateDocuments).where(eq(templateDocuments.companyId, company.id));
    expect((await moveDocuments(stack.services)).moved).toBe(0);
    expect(await db.select().from(templateDocuments).where(eq(templateDocuments.companyId, company.id))).toEqual(before);
  });

  it('serves the moved documents: the signing page, the download link; and finishes the envelope still out from its moved original', async () => {
    const page = await stack.app.request(`/sign/${out.links[0]!.token}/document.pdf`);
    expect(page.status).toBe(200);
    const shown = new Uint8Array(await page.arrayBuffer());
    const [template] = await stack.services.database.db
      .select({ id: templateDocuments.id })
      .from(templateDocuments)
      .innerJoin(envelopes, eq(envelopes.templateId, templateDocuments.templateId))
      .where(eq(envelopes.id, out.envelopeId));
    const original = originals.get(template!.id)!;
    expect(sha256(shown)).toBe(sha256(original));

    const link = (await documentDownloadUrl(stack.services, company.id, done.envelopeId)).slice(BASE_URL.length);
    const download = await stack.app.request(link);
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(done.finished));

    for (const { token } of out.links) {
      const state = await bySigner(stack.services, testSigner, openSigningLink, { token });
      if (state.kind !== 'sign') throw new Error(`expected sign, got ${state.kind}`);
      const values = Object.fromEntries(state.fields.map((field) => [field.id, 'Signed']));
      await bySigner(stack.services, testSigner, signAsRecipient, { token, submission: { consent: true, values } });
    }
    await drained(stack);
    const finished = await finishedPdf(stack.services, out.envelopeId);
    expect(finished, 'the finished PDF is stored').toBeTruthy();
    // The finished PDF is the moved original, byte for byte, then its updates.
    expect(Buffer.from(finished!.subarray(0, original.byteLength)).equals(Buffer.from(original))).toBe(true);
  }, 60_000);

  it('moves a row that a read meets before the move has reached it', async () => {
    const sent = await sendTestEnvelope(stack, company);
    const bytes = new TextEncoder().encode(`%PDF-1.7 read before the move ${crypto.randomUUID()}`);
    const { db } = stack.services.database;
    await db
      .update(envelopes)
      .set({ status: 'completed', signedDocument: bytes, signedDocumentSha256: sha256(bytes) })
      .where(eq(envelopes.id, sent.envelopeId));
    const link = (await documentDownloadUrl(stack.services, company.id, sent.envelopeId)).slice(BASE_URL.length);
    const download = await stack.app.request(link, { headers: { range: 'bytes=0-7' } });
    expect(download.status).toBe(206);
    expect(new TextDecoder().decode(await download.arrayBuffer())).toBe('%PDF-1.7');
    const [envelope] = await db.select().from(envelopes).where(eq(envelopes.id, sent.envelopeId));
    expect(envelope).toMatchObject({ signedDocument: null, signedDocumentSize: bytes.byteLength });
  });

  it("moves a few rows a housekeeping run, as the Workers' cron does, until none is left", async () => {
    const { db } = stack.services.database;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const template = await createTestTemplate(stack, company.id);
      const [row] = await db.select().from(templateDocuments).where(eq(templateDocuments.templateId, template.id));
      const bytes = new Uint8Array([
        ...(await storedBytes(stack.services.documents, row!.storageKey!)),
        ...new TextEncoder().encode(`%${crypto.randomUUID()}\n`),
      ]);
      await db
        .update(templateDocuments)
        .set({ content: bytes, storageKey: null, size: null, sha256: sha256(bytes) })
        .where(eq(templateDocuments.id, row!.id));
      ids.push(row!.id);
    }
    const left = async () =>
      (
        await db
          .select({ id: templateDocuments.id })
          .from(templateDocuments)
          .where(and(inArray(templateDocuments.id, ids), isNotNull(templateDocuments.content)))
      ).length;
    await housekeeping(stack.services);
    expect(await left()).toBeGreaterThanOrEqual(2);
    await housekeeping(stack.services);
    await housekeeping(stack.services);
    expect(await left()).toBe(0);
  }, 60_000);
});
