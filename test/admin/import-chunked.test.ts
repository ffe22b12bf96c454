/**
 * The admin API's 27 MiB limit on a body sent without its length (chunked transfer): counted as the
 * body is read, never held whole. A chunked template import reaches the document store while it is
 * still arriving; one that runs past 27 MiB is refused 413 payload_too_large, as one that tells its
 * length is, and leaves nothing behind; the limit is exact.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { templates } from '../../src/data/schema.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import type { DocumentStore } from '../../src/ports/document-store.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { expectErrorResponse } from '../support/expect-error.js';
import { createTestCompany } from '../support/factories.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { storedBytes } from '../support/stored-documents.js';
import { importParts, multipartBody, multipartType, paddedPdf } from '../support/multipart-body.js';

const MiB = 1024 * 1024;
const encoder = new TextEncoder();

let stack: TestStack;
let twoPages: Uint8Array;
beforeAll(async () => {
  stack = await openStack();
  twoPages = await generateDocument('Chunked import', 2, nodeFontSource());
});
afterAll(() => stack.close());

/** The two-page PDF padded to `size` bytes with a comment of its own: bytes no other test stores. */
const pdfOfSize = (size: number) => paddedPdf(twoPages, size);

const definition = (name: string) =>
  JSON.stringify({
    name,
    signing_order: 'parallel',
    roles: [{ name: 'Signer', type: 'signer', order: 1 }],
    fields: [{ role: 'Signer', type: 'signature', page: 1, x: 100, y: 100, width: 200, height: 40 }],
  });

/** The import's multipart body: the document first, then the template. */
const importBody = (pdf: Uint8Array, name: string) => multipartBody(importParts(pdf, definition(name)));

/** The body as a client sends it chunked, 64 KiB at a time, each once asked for; `sent` counts what went. */
function chunked(body: Uint8Array) {
  const progress = { sent: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (progress.sent >= body.byteLength) return controller.close();
      controller.enqueue(body.slice(progress.sent, progress.sent + 64 * 1024));
      progress.sent += 64 * 1024;
    },
  });
  return { stream, progress };
}

/** A request with a stream for its body and no Content-Length, as fetch sends one chunked. */
const sendChunked = (path: string, contentType: string, stream: ReadableStream<Uint8Array>) =>
  stack.app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': contentType },
    body: stream,
    duplex: 'half',
  } as RequestInit);

const templateNames = async (companyId: string) =>
  (await stack.services.database.db.select({ name: templates.name }).from(templates).where(eq(templates.companyId, companyId))).map((row) => row.name);

describe('a template import sent chunked, without its length', () => {
  it('is accepted, its PDF handed to the store while the rest of the body is still to come', async () => {
    const company = await createTestCompany(stack);
    const pdf = pdfOfSize(4 * MiB);
    const { stream, progress } = chunked(importBody(pdf, 'Chunked'));
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
        sentAtFirstBytes ??= progress.sent;
        yield chunk;
      }
    }
    stack.services.documents = watching;
    let response: Response;
    try {
      response = await sendChunked(`/admin/v1/companies/${company.id}/templates`, multipartType, stream);
    } finally {
      stack.services.documents = store;
    }
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.document).toMatchObject({ file_name: 'big.pdf', sha256: await sha256Hex(pdf), page_count: 2 });
    expect(Buffer.from(await storedBytes(store, await sha256Hex(pdf))).equals(pdf)).toBe(true);
    expect(sentAtFirstBytes).toBeLessThan(MiB);
    expect(await templateNames(company.id)).toEqual(['Chunked']);
  });

  it('past 27 MiB: 413 payload_too_large with the limit, and nothing stored', async () => {
    const company = await createTestCompany(stack);
    const memory = stack.services.documents instanceof MemoryDocumentStore ? stack.services.documents : undefined;
    const before = memory?.count;
    const pdf = pdfOfSize(30 * MiB);
    const body = importBody(pdf, 'Too big, chunked');
    const { stream, progress } = chunked(body);
    const response = await sendChunked(`/admin/v1/companies/${company.id}/templates`, multipartType, stream);
    const refused = await expectErrorResponse(response, 413, 'payload_too_large');
    expect(refused.error.details).toEqual({ limit: '27 MiB' });
    expect(refused.error.message).toBe('The request body is larger than 27 MiB.');
    // Refused as the limit was passed: the rest of the body was never asked for.
    expect(progress.sent).toBeLessThan(28 * MiB);
    expect(await templateNames(company.id)).toEqual([]);
    if (memory) {
      expect(memory.count).toBe(before);
      expect(await memory.get(await sha256Hex(pdf))).toBeNull();
    }
  }, 60_000);
});

describe('another admin body sent chunked', () => {
  /** A JSON body of exactly `size` bytes: a company whose name is far too long. */
  const companyOfSize = (size: number) => {
    const shell = encoder.encode('{"name":""}');
    const body = new Uint8Array(size).fill(0x61);
    body.set(shell.subarray(0, 9));
    body.set(shell.subarray(9), size - 2);
    return body;
  };

  it('of exactly 27 MiB is read and judged; one byte more is refused 413', async () => {
    const { stream: exact } = chunked(companyOfSize(27 * MiB));
    const judged = await sendChunked('/admin/v1/companies', 'application/json', exact);
    expect((await expectErrorResponse(judged, 422, 'validation_failed')).error.details.issues).toContainEqual(expect.objectContaining({ path: 'name' }));
    const { stream: over } = chunked(companyOfSize(27 * MiB + 1));
    const refused = await expectErrorResponse(await sendChunked('/admin/v1/companies', 'application/json', over), 413, 'payload_too_large');
    expect(refused.error.details).toEqual({ limit: '27 MiB' });
  }, 60_000);
});
