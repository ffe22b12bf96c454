/**
 * The webhook body that carries a document, made on Node from each kind of store: from the file
 * store's byte stream (read into one buffer of the body's own) and from the memory store's chunks,
 * in the signing pass (parts lent, each overwritten by the next) and in the sending pass (parts
 * kept by whoever holds them), across the edges of the 64 KiB reads and of base64's groups of three.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileDocumentStore } from '../../src/adapters/embedded/file-document-store.js';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { bodyLength, bodyParts, DocumentChanged, documentBody } from '../../src/domain/webhooks/streamed-body.js';
import type { DocumentStore } from '../../src/ports/document-store.js';
import { patterned } from '../support/document-store-contract.js';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

const stores: [string, () => Promise<DocumentStore>][] = [
  [
    'the file store',
    async () => {
      const folder = await mkdtemp(join(tmpdir(), 'streamed-webhook-body-'));
      folders.push(folder);
      return new FileDocumentStore(folder);
    },
  ],
  ['the memory store', async () => new MemoryDocumentStore()],
];

const KiB = 1024;
const sizes = [0, 1, 2, 3, 64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 3 * 64 * KiB + 2, 1000 * KiB + 7];

/** What the JSON would be with the base64 written in place. */
const expectedJson = (pdf: Uint8Array) =>
  JSON.stringify({ type: 'envelope.document_ready', data: { document: { content_base64: Buffer.from(pdf).toString('base64') } } });

describe.each(stores)('a webhook body read from %s', (_store, open) => {
  it.each(sizes)('of a %i-byte document: the same bytes lent one part at a time as kept whole, of the length told', async (size) => {
    const documents = await open();
    const pdf = patterned(size, 5);
    const stored = await documents.put(pdf, { maxBytes: size });
    const body = documentBody(JSON.stringify({ type: 'envelope.document_ready', data: { document: { content_base64: 'MARK' } } }), 'MARK', stored);

    // Lent: each part copied before the next is asked for, as the signatures' HMACs take them.
    const copied: Buffer[] = [];
    for await (const part of bodyParts(documents, body, { lent: true })) copied.push(Buffer.from(part));
    // Kept: every part held until the end, as a sender may hold them.
    const kept: Uint8Array[] = [];
    for await (const part of bodyParts(documents, body)) kept.push(part);

    const lentText = Buffer.concat(copied).toString('latin1');
    const keptText = Buffer.concat(kept).toString('latin1');
    expect(lentText.length).toBe(bodyLength(body));
    expect(lentText === expectedJson(pdf)).toBe(true);
    expect(keptText === lentText).toBe(true);
  });

  it('ends short, with DocumentChanged, when the stored document is longer than its row says', async () => {
    const documents = await open();
    const pdf = patterned(200 * KiB, 9);
    const stored = await documents.put(pdf, { maxBytes: pdf.byteLength });
    const body = documentBody('{"content_base64":"MARK"}', 'MARK', { ...stored, size: 100 * KiB });
    const parts = bodyParts(documents, body, { lent: true });
    await expect(
      (async () => {
        for await (const _part of parts);
      })(),
    ).rejects.toBeInstanceOf(DocumentChanged);
    // The read given up let the document go: it is read whole again, and deleted.
    const again = await documents.get(stored.key);
    expect(Buffer.from(await new Response(again!.body).arrayBuffer()).equals(pdf)).toBe(true);
    await documents.delete(stored.key);
    expect(await documents.get(stored.key)).toBeNull();
  });
});
