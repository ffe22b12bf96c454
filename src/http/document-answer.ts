/**
 * A stored document as an HTTP answer: streamed from the document store, whole or the one byte
 * range asked for (RFC 9110 §14), so that a reader can resume a download or a viewer fetch pages
 * as it shows them, and no answer holds the document in memory. Its ETag is its SHA-256.
 */
import type { ByteRange, DocumentStore, StoredDocument } from '../ports/document-store.js';

/**
 * The range a `Range` header asks for: one of `bytes=a-b`, `bytes=a-`, `bytes=-n`, clamped to
 * the document; `unsatisfiable` when it starts past the end (or asks for no bytes at its end);
 * null for the whole document: no header, another unit, several ranges or a malformed one, which
 * RFC 9110 lets a server answer with the whole.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match) return null;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const offset = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < offset) return null;
  if (offset >= size) return 'unsatisfiable';
  return { offset, length: Math.min(end, size - 1) - offset + 1 };
}

/**
 * The `Range` of a request, unless its `If-Range` names another version of the document: then the
 * whole (RFC 9110 §13.1.5), so that a reader resuming with the bytes of one document never splices
 * in those of another (the signing page's document is the original, then the finished PDF). Only
 * this document's strong ETag matches; a date never does, as these answers carry no Last-Modified.
 */
function rangeToServe(request: Headers, etag: string): string | undefined {
  const ifRange = request.get('If-Range');
  if (ifRange !== null && ifRange.trim() !== etag) return undefined;
  return request.get('Range') ?? undefined;
}

/**
 * The answer for `document` to a request with these headers: 200 with the whole, 206 with the
 * range asked for, 416 with the document's size when that range is past its end. `headers` are
 * the endpoint's own (type, disposition, caching).
 */
export async function documentAnswer(documents: DocumentStore, document: StoredDocument, request: Headers, headers: Record<string, string>): Promise<Response> {
  const etag = `"${document.sha256}"`;
  const common = { ...headers, 'Accept-Ranges': 'bytes', ETag: etag };
  const range = requestedRange(rangeToServe(request, etag), document.size);
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...common, 'Content-Range': `bytes */${document.size}` } });
  }
  const body = await documents.get(document.key, range ?? undefined);
  // The row names a document the store does not have: a fault of the service, never of the request.
  if (!body) throw new Error(`The document ${document.key} is missing from the document store.`);
  const { offset, length } = body.range;
  if (!range) return new Response(body.body, { status: 200, headers: { ...common, 'Content-Length': String(length) } });
  return new Response(body.body, {
    status: 206,
    headers: { ...common, 'Content-Length': String(length), 'Content-Range': `bytes ${offset}-${offset + length - 1}/${body.size}` },
  });
}

/**
 * `document` streamed from the store, then `appended` (an update made for this answer, a few
 * kilobytes): always the whole, 200. A `Range` is not honoured (RFC 9110 lets a server answer the
 * whole): the update is made anew by the PDF work for each request, so a viewer fetching pages range
 * by range would have the document parsed once per range; and the answer has no ETag, so a resumed
 * download could not be told apart from a splice of two different copies.
 */
export async function documentFollowedBy(
  documents: DocumentStore,
  document: StoredDocument,
  appended: Uint8Array,
  headers: Record<string, string>,
): Promise<Response> {
  const stored = await documents.get(document.key);
  if (!stored) throw new Error(`The document ${document.key} is missing from the document store.`);
  const original = stored.body.getReader();
  let ended = false;
  // Pulled a chunk at a time, as the reader takes them: the document is never held whole.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (ended) return;
      const next = await original.read();
      if (!next.done) return controller.enqueue(next.value);
      ended = true;
      controller.enqueue(appended);
      controller.close();
    },
    cancel: (reason) => original.cancel(reason),
  });
  const length = stored.size + appended.length;
  return new Response(ofKnownLength(body, length), { status: 200, headers: { ...headers, 'Accept-Ranges': 'none', 'Content-Length': String(length) } });
}

type LengthStream = new (length: number) => TransformStream<Uint8Array, Uint8Array>;

/**
 * workerd sends a body made in script in chunks, dropping the Content-Length given with it, unless
 * the body comes out of its FixedLengthStream (which also refuses more or fewer bytes than it was
 * told); Node sends the header as given. A reader then knows the download's size from the start.
 */
function ofKnownLength(body: ReadableStream<Uint8Array>, length: number): ReadableStream<Uint8Array> {
  const Fixed = (globalThis as { FixedLengthStream?: LengthStream }).FixedLengthStream;
  if (!Fixed) return body;
  const fixed = new Fixed(length);
  // A failure reaches the reader through the fixed stream itself.
  body.pipeTo(fixed.writable).catch(() => {});
  return fixed.readable;
}
