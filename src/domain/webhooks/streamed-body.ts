/**
 * A webhook body that carries a stored document, written as a stream: the JSON before the
 * document's base64, the base64 encoded a chunk at a time as the store hands the bytes out, then the
 * JSON after it. Its length is known before a byte is read, so it is signed by a first pass over
 * the same parts and sent by a second, and no step holds more than a chunk of the document.
 */
import { createHash } from 'node:crypto';
import type { DocumentStore, StoredDocument } from '../../ports/document-store.js';

const encoder = new TextEncoder();

/** The JSON around a document's base64, and the document whose base64 goes between. */
export type DocumentBody = { prefix: Uint8Array; document: StoredDocument; suffix: Uint8Array };

/**
 * The document read from the store is not the one the body was built for (another size or
 * SHA-256, or gone): a body made of it would not match its signature, so it is never finished.
 */
export class DocumentChanged extends Error {
  constructor(key: string) {
    super(`The stored document ${key} is not the one its row describes.`);
  }
}

/**
 * The body of `json` with the document's base64 where the string `marker` is. `json` is the one
 * JSON.stringify of the payload, so the parts parse to exactly what it would with the base64 in place.
 */
export function documentBody(json: string, marker: string, document: StoredDocument): DocumentBody {
  const around = json.split(JSON.stringify(marker));
  if (around.length !== 2) throw new Error('The body must hold its document marker exactly once.');
  return { prefix: encoder.encode(`${around[0]}"`), document, suffix: encoder.encode(`"${around[1]}`) };
}

/** Bytes in the body: a base64 quartet for each started group of three bytes. */
export const bodyLength = (body: DocumentBody) => body.prefix.byteLength + 4 * Math.ceil(body.document.size / 3) + body.suffix.byteLength;

/**
 * How the parts of a body are handed out. `lent`: each part a view into one buffer that the next
 * part overwrites, for a reader done with a part before it asks for the next (the signatures'
 * HMACs), so that the signing pass makes no garbage of the document's size; otherwise each part is
 * its own, for a reader that may hold it (fetch, sending).
 */
export type PartsOptions = { lent?: boolean };

/**
 * The body's bytes, the document read from the store afresh. The document is counted and hashed
 * as it passes and checked against its row before the closing part is given: a document that
 * changed makes the body end short of its length, with DocumentChanged, never complete.
 */
export async function* bodyParts(documents: DocumentStore, body: DocumentBody, options: PartsOptions = {}): AsyncGenerator<Uint8Array> {
  const { key, size, sha256 } = body.document;
  const found = await documents.get(key);
  if (!found) throw new DocumentChanged(key);
  const hash = createHash('sha256');
  let read = 0;
  try {
    yield body.prefix;
    yield* base64Chunks(
      (async function* () {
        for await (const chunk of documentChunks(found.body)) {
          read += chunk.byteLength;
          if (read > size) throw new DocumentChanged(key);
          hash.update(chunk);
          yield chunk;
        }
      })(),
      options,
    );
  } finally {
    // A body given up before its document was read (a failed connection) lets the store's read go.
    if (!found.body.locked) await found.body.cancel().catch(() => {});
  }
  if (read !== size || hash.digest('hex') !== sha256) throw new DocumentChanged(key);
  yield body.suffix;
}

/** The most of the document read at once, where it is read into a buffer of this body's own. */
const READ_BYTES = 64 * 1024;

/**
 * The chunks of a document's stream. Where the stream takes a reader's buffer (a byte stream: the
 * file store's), every chunk is read into one buffer, overwritten by the next: each is used (hashed,
 * encoded) before the next is read, and a document read twice per attempt leaves no buffers of its
 * size behind for the garbage collector. Other streams hand out chunks of their own.
 */
async function* documentChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream.
    yield* stream as unknown as AsyncIterable<Uint8Array>;
    return;
  }
  let buffer = new ArrayBuffer(READ_BYTES);
  try {
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done) return;
      yield value;
      // The read hands its buffer back in `value`; the one passed in is detached.
      buffer = value.buffer as ArrayBuffer;
    }
  } finally {
    // Given up half-way (a document longer than its row, a failed connection): the rest is not read.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

const ALPHABET = encoder.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const PAD = 61; // '='

/**
 * Standard base64 (with padding) of the chunks, as ASCII bytes, one output per input chunk: the
 * 0–2 bytes at a chunk's end that do not make a whole group of three are carried to the next,
 * whose first bytes complete their group. Each input chunk is done with once its output is given
 * (only its last 0–2 bytes are kept, copied); `lent` outputs share one buffer (PartsOptions).
 */
export async function* base64Chunks(chunks: AsyncIterable<Uint8Array>, options: PartsOptions = {}): AsyncGenerator<Uint8Array> {
  let carry: Uint8Array = new Uint8Array(0);
  let lent = new Uint8Array(0);
  for await (const chunk of chunks) {
    // The group begun at the last chunk's end, completed from this one's start.
    let head: Uint8Array | undefined;
    let at = 0;
    if (carry.byteLength > 0) {
      at = Math.min(3 - carry.byteLength, chunk.byteLength);
      const group = joined(carry, chunk.subarray(0, at));
      carry = group.byteLength < 3 ? group : new Uint8Array(0);
      if (group.byteLength === 3) head = group;
    }
    const whole = chunk.byteLength - at - ((chunk.byteLength - at) % 3);
    if (at + whole < chunk.byteLength) carry = chunk.slice(at + whole);
    const length = (((head ? 3 : 0) + whole) / 3) * 4;
    if (length === 0) continue;
    let out: Uint8Array;
    if (options.lent) {
      if (lent.byteLength < length) lent = new Uint8Array(length);
      out = lent.subarray(0, length);
    } else out = new Uint8Array(length);
    if (head) encodeGroups(head, 0, 3, out, 0);
    encodeGroups(chunk, at, at + whole, out, head ? 4 : 0);
    yield out;
  }
  if (carry.byteLength > 0) yield encodeTail(carry);
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** The base64 of `input`'s bytes `from` to `to` (a multiple of three of them), into `out` from `into`. */
function encodeGroups(input: Uint8Array, from: number, to: number, out: Uint8Array, into: number): void {
  for (let i = from, o = into; i < to; i += 3, o += 4) {
    const n = (input[i]! << 16) | (input[i + 1]! << 8) | input[i + 2]!;
    out[o] = ALPHABET[n >> 18]!;
    out[o + 1] = ALPHABET[(n >> 12) & 63]!;
    out[o + 2] = ALPHABET[(n >> 6) & 63]!;
    out[o + 3] = ALPHABET[n & 63]!;
  }
}

/** The last, padded quartet of one or two bytes. */
function encodeTail(tail: Uint8Array): Uint8Array {
  const n = (tail[0]! << 16) | ((tail[1] ?? 0) << 8);
  return Uint8Array.of(ALPHABET[n >> 18]!, ALPHABET[(n >> 12) & 63]!, tail.byteLength === 2 ? ALPHABET[(n >> 6) & 63]! : PAD, PAD);
}

/**
 * What fetch takes to send `parts` as a body of `length` bytes, read as the connection takes them.
 * Node's fetch sends a stream only with `duplex: 'half'` and frames it by the Content-Length given;
 * workerd ignores `duplex` and sends a stream's `expectedLength` as its Content-Length (a stream of
 * unknown length would go chunked, which some receivers refuse). See `streamedRedirect` for the
 * redirect mode.
 */
export function streamedRequestBody(parts: AsyncIterable<Uint8Array>, length: number) {
  const iterator = parts[Symbol.asyncIterator]();
  const source = {
    expectedLength: length,
    async pull(controller: ReadableStreamDefaultController<Uint8Array>) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  };
  return {
    body: new ReadableStream<Uint8Array>(source),
    duplex: 'half' as const,
    redirect: streamedRedirect(),
    headers: { 'content-length': String(length) },
  };
}

let redirectMode: 'error' | 'manual' | undefined;

/**
 * How a streamed body's fetch treats a redirect. Under `manual` (or `follow`) Node's fetch tees the
 * body to send it again after a redirect, and the branch it never reads keeps every byte sent: where
 * fetch knows `error`, a redirect is refused with it (an error instead of the 3xx, still never
 * followed). workerd has no `error` (its Request refuses the value) and tees nothing: `manual` there.
 */
export function streamedRedirect(): 'error' | 'manual' {
  if (redirectMode) return redirectMode;
  try {
    new Request('http://redirect-mode.invalid/', { redirect: 'error' });
    redirectMode = 'error';
  } catch {
    redirectMode = 'manual';
  }
  return redirectMode;
}
