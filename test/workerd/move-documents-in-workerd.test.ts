/**
 * The move of documents kept the old way (bytea in Postgres) into R2, inside workerd over the
 * production adapters: rows written as an earlier version wrote them, through the Worker's own
 * database adapter (drizzle over the Neon driver); a read through the Worker that meets one moves
 * it; moveDocuments moves the rest; every document is then in R2 with the same SHA-256 and size and
 * served by the Worker from there; a second run moves nothing and loses nothing.
 */
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { envelopes, templateDocuments } from '../../src/data/schema.js';
import { moveDocuments } from '../../src/domain/documents/move-documents.js';
import { documentDownloadUrl } from '../../src/domain/webhooks/document-link.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import {
  bucket,
  type Company,
  createCompany,
  heldBytes,
  importTemplate,
  pdfOf,
  type Sent,
  sendEnvelope,
  services,
  templateDocumentKey,
  worker,
} from './worker-documents.js';

const { db } = services.database;

/** A document of an old row: the row's id and the bytes it holds in bytea. */
type Kept = { id: string; bytes: Uint8Array; sha256: string };

let company: Company;
/** Out for signing from templates A and B, whose documents are kept the old way. */
let outA: Sent;
let outB: Sent;
let templateA: Kept;
let templateB: Kept;
/** Completed envelopes whose finished PDFs are kept the old way. */
let finishedC: Kept;
let finishedD: Kept;

/** The PDF with a line of its own at its end, so that no object R2 holds yet has its bytes. */
const marked = async (bytes: Uint8Array) => {
  const unique = new Uint8Array([...bytes, ...new TextEncoder().encode(`%${crypto.randomUUID()}\n`)]);
  return { bytes: unique, sha256: await sha256Hex(unique) };
};

/** A template's document row as before the store: its bytes in `content`, no key, no size. */
async function templateKeptTheOldWay(templateId: string): Promise<Kept> {
  const { bytes, sha256 } = await marked(await heldBytes(await templateDocumentKey(company, templateId)));
  const [row] = await db
    .update(templateDocuments)
    .set({ content: bytes, storageKey: null, size: null, sha256 })
    .where(eq(templateDocuments.templateId, templateId))
    .returning({ id: templateDocuments.id });
  // Its envelopes were sent with this document, as they would have been.
  await db.update(envelopes).set({ documentSha256: sha256 }).where(eq(envelopes.templateId, templateId));
  return { id: row!.id, bytes, sha256 };
}

/** A completed envelope as before the store: its finished PDF in `signed_document`, no key, no size. */
async function finishedKeptTheOldWay(envelopeId: string): Promise<Kept> {
  const { bytes, sha256 } = await marked(await pdfOf('Finished before the store'));
  await db
    .update(envelopes)
    .set({
      status: 'completed',
      completedAt: new Date(),
      signedDocument: bytes,
      signedDocumentSha256: sha256,
      signedDocumentKey: null,
      signedDocumentSize: null,
    })
    .where(eq(envelopes.id, envelopeId));
  return { id: envelopeId, bytes, sha256 };
}

const templateRow = async (kept: Kept) => (await db.select().from(templateDocuments).where(eq(templateDocuments.id, kept.id)))[0]!;
const envelopeRow = async (kept: Kept) => (await db.select().from(envelopes).where(eq(envelopes.id, kept.id)))[0]!;
const downloadPath = async (kept: Kept) => (await documentDownloadUrl(services, company.id, kept.id)).slice(String(services.config.baseUrl).length);
const bodyOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

/** What R2 holds under `key` is the document: its bytes, its size and SHA-256 in the object's metadata. */
async function expectInR2(key: string | null, kept: Kept) {
  expect(key).toMatch(/^documents\/\w+$/);
  const object = await bucket.head(key!);
  expect(object?.size).toBe(kept.bytes.byteLength);
  expect(object?.customMetadata).toEqual({ sha256: kept.sha256, size: String(kept.bytes.byteLength) });
  expect(await sha256Hex(await heldBytes(key!))).toBe(kept.sha256);
}

/** The objects in the bucket whose metadata names this SHA-256. */
async function objectsHolding(sha256: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    // `include` is the runtime's (the typings of @cloudflare/workers-types/index.js predate it): without it, no metadata comes back.
    const options = { prefix: 'documents/', include: ['customMetadata'], ...(cursor ? { cursor } : {}) };
    const page = await bucket.list(options);
    keys.push(...page.objects.filter((object) => object.customMetadata?.sha256 === sha256).map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

beforeAll(async () => {
  company = await createCompany();
  const [a, b] = [await importTemplate(company, await pdfOf('Lease A')), await importTemplate(company, await pdfOf('Lease B'))];
  [outA, outB] = [await sendEnvelope(company, a), await sendEnvelope(company, b)];
  const [c, d] = [await sendEnvelope(company, a), await sendEnvelope(company, b)];
  [templateA, templateB] = [await templateKeptTheOldWay(a), await templateKeptTheOldWay(b)];
  [finishedC, finishedD] = [await finishedKeptTheOldWay(c.envelopeId), await finishedKeptTheOldWay(d.envelopeId)];
}, 60_000);

describe('documents kept in bytea, moved into R2 in workerd', () => {
  it('are written and read back through the Neon driver as an earlier version kept them', async () => {
    for (const kept of [templateA, templateB]) {
      expect(await templateRow(kept)).toMatchObject({ content: kept.bytes, storageKey: null, size: null, sha256: kept.sha256 });
      expect(await objectsHolding(kept.sha256)).toEqual([]);
    }
    for (const kept of [finishedC, finishedD]) {
      expect(await envelopeRow(kept)).toMatchObject({ signedDocument: kept.bytes, signedDocumentKey: null, signedDocumentSize: null });
      expect(await objectsHolding(kept.sha256)).toEqual([]);
    }
  });

  it('are moved by the Worker’s read that meets them first: the signing page’s document and a range by the download link', async () => {
    const page = await worker(`/sign/${outA.token}/document.pdf`);
    expect(page.status).toBe(200);
    expect(page.headers.get('etag')).toBe(`"${templateA.sha256}"`);
    expect(await bodyOf(page)).toEqual(templateA.bytes);
    const row = await templateRow(templateA);
    expect(row).toMatchObject({ content: null, size: templateA.bytes.byteLength, sha256: templateA.sha256 });
    await expectInR2(row.storageKey, templateA);

    const download = await worker(await downloadPath(finishedD), { headers: { range: 'bytes=0-7' } });
    expect(download.status).toBe(206);
    expect(download.headers.get('content-range')).toBe(`bytes 0-7/${finishedD.bytes.byteLength}`);
    expect(await bodyOf(download)).toEqual(finishedD.bytes.subarray(0, 8));
    const envelope = await envelopeRow(finishedD);
    expect(envelope).toMatchObject({ signedDocument: null, signedDocumentSize: finishedD.bytes.byteLength, signedDocumentSha256: finishedD.sha256 });
    await expectInR2(envelope.signedDocumentKey, finishedD);
  });

  it('are moved by moveDocuments over R2 and Neon, then served by the Worker from R2', async () => {
    const { moved } = await moveDocuments(services);
    expect(moved).toBeGreaterThanOrEqual(2);

    const template = await templateRow(templateB);
    expect(template).toMatchObject({ content: null, size: templateB.bytes.byteLength, sha256: templateB.sha256 });
    await expectInR2(template.storageKey, templateB);
    const envelope = await envelopeRow(finishedC);
    expect(envelope).toMatchObject({ signedDocument: null, signedDocumentSize: finishedC.bytes.byteLength, signedDocumentSha256: finishedC.sha256 });
    await expectInR2(envelope.signedDocumentKey, finishedC);

    const page = await worker(`/sign/${outB.token}/document.pdf`);
    expect(page.status).toBe(200);
    expect(await bodyOf(page)).toEqual(templateB.bytes);
    const link = await downloadPath(finishedC);
    const download = await worker(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('etag')).toBe(`"${finishedC.sha256}"`);
    expect(await bodyOf(download)).toEqual(finishedC.bytes);
    const tail = await worker(link, { headers: { range: 'bytes=-40' } });
    expect(tail.status).toBe(206);
    expect(await bodyOf(tail)).toEqual(finishedC.bytes.subarray(-40));
  });

  it('move nothing twice and lose nothing when the move runs again: one object each, the rows as they were', async () => {
    const rowsBefore = await db
      .select()
      .from(templateDocuments)
      .where(inArray(templateDocuments.id, [templateA.id, templateB.id]));
    const envelopesBefore = await db
      .select()
      .from(envelopes)
      .where(inArray(envelopes.id, [finishedC.id, finishedD.id]));

    expect(await moveDocuments(services)).toEqual({ moved: 0 });

    expect(
      await db
        .select()
        .from(templateDocuments)
        .where(inArray(templateDocuments.id, [templateA.id, templateB.id])),
    ).toEqual(rowsBefore);
    expect(
      await db
        .select()
        .from(envelopes)
        .where(inArray(envelopes.id, [finishedC.id, finishedD.id])),
    ).toEqual(envelopesBefore);
    const keys = [...rowsBefore.map((row) => row.storageKey), ...envelopesBefore.map((row) => row.signedDocumentKey)];
    for (const kept of [templateA, templateB, finishedC, finishedD]) {
      const held = await objectsHolding(kept.sha256);
      expect(held, 'one object per document').toHaveLength(1);
      expect(keys).toContain(held[0]);
    }
    // Each still served, from the one object its row names.
    expect(await bodyOf(await worker(`/sign/${outA.token}/document.pdf`))).toEqual(templateA.bytes);
    expect(await bodyOf(await worker(await downloadPath(finishedD)))).toEqual(finishedD.bytes);
  });
});
