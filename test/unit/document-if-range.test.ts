/**
 * `If-Range` on the answers that serve a stored document (RFC 9110 §13.1.5): the range asked for
 * only while the document is still the copy being resumed, named by its ETag; otherwise the whole
 * document, so that a reader never splices the bytes of two documents (the signing page's document
 * is the original, then the finished PDF, under one address).
 */
import { describe, expect, it } from 'vitest';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { documentAnswer } from '../../src/http/document-answer.js';

const SIZE = 1000;
const bytes = Uint8Array.from({ length: SIZE }, (_, i) => (i * 7 + 3) % 256);

async function answer(headers: Record<string, string>) {
  const documents = new MemoryDocumentStore();
  const document = await documents.put(bytes, { maxBytes: SIZE });
  const response = await documentAnswer(documents, document, new Headers(headers), { 'Content-Type': 'application/pdf' });
  return { response, etag: `"${document.sha256}"`, body: new Uint8Array(await response.arrayBuffer()) };
}

describe('documentAnswer under If-Range', () => {
  it('serves the range when If-Range is the document’s ETag', async () => {
    const { etag } = await answer({});
    const { response, body } = await answer({ range: 'bytes=10-19', 'if-range': etag });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 10-19/${SIZE}`);
    expect(body).toEqual(bytes.subarray(10, 20));
  });

  it.each([
    ['another ETag', `"${'0'.repeat(64)}"`],
    ['the weak form of its ETag, which never matches', 'W/"{etag}"'],
    ['a date, as the answers carry no Last-Modified', 'Wed, 21 Oct 2026 07:28:00 GMT'],
  ])('serves the whole document, 200, when If-Range is %s', async (_what, ifRange) => {
    const { etag } = await answer({});
    const { response, body } = await answer({ range: 'bytes=10-19', 'if-range': ifRange.replace('"{etag}"', etag) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-range')).toBeNull();
    expect(response.headers.get('etag')).toBe(etag);
    expect(body).toEqual(bytes);
  });

  it('serves the whole document, not 416, to a range past the end under a stale If-Range', async () => {
    const { response, body } = await answer({ range: `bytes=${SIZE}-`, 'if-range': `"${'0'.repeat(64)}"` });
    expect(response.status).toBe(200);
    expect(body).toEqual(bytes);
  });

  it('serves the whole document to If-Range without Range', async () => {
    const { etag } = await answer({});
    const { response, body } = await answer({ 'if-range': etag });
    expect(response.status).toBe(200);
    expect(body).toEqual(bytes);
  });
});
