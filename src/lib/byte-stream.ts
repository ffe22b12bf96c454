/**
 * What every document store does to the bytes it is given: read them a chunk at a time, whatever
 * the source, count and hash them as they pass, and stop as soon as they run past the limit, so
 * that no store holds more of a document than the chunk in hand.
 */
import { createHash } from 'node:crypto';
import { type ByteRange, type DocumentSource, DocumentTooLarge } from '../ports/document-store.js';

/** The chunks of a source: bytes in memory are one chunk, a stream or an iterable gives its own. */
export async function* chunksOf(source: DocumentSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      // A write given up half-way (too large, a failed store) cancels the rest of its source.
      await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
  yield* source;
}

/** A running count and SHA-256 of the bytes that went through `pass`. */
export type Tally = { readonly size: number; readonly sha256: string };

/**
 * The chunks of `source`, counted and hashed as they are read; throws DocumentTooLarge on the
 * chunk that goes past `maxBytes`, before handing it on. `tally` is complete once they are all read.
 */
export function countedChunks(source: DocumentSource, maxBytes: number): { chunks: AsyncGenerator<Uint8Array>; tally: () => Tally } {
  const hash = createHash('sha256');
  let size = 0;
  let sha256: string | undefined;
  async function* chunks() {
    for await (const chunk of chunksOf(source)) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new DocumentTooLarge(maxBytes);
      hash.update(chunk);
      yield chunk;
    }
    sha256 = hash.digest('hex');
  }
  return {
    chunks: chunks(),
    tally: () => {
      if (sha256 === undefined) throw new Error('The document has not been read to its end.');
      return { size, sha256 };
    },
  };
}

/**
 * Chunks gathered into parts of `partBytes` each (the last one shorter): at most one part, plus the
 * chunk being split, is held at a time.
 */
export async function* partsOf(chunks: AsyncIterable<Uint8Array>, partBytes: number): AsyncGenerator<Uint8Array> {
  // Made when its first byte comes, so that the part handed on is let go before the next is made.
  let part: Uint8Array | undefined;
  let filled = 0;
  for await (const chunk of chunks) {
    let at = 0;
    while (at < chunk.byteLength) {
      part ??= new Uint8Array(partBytes);
      const taken = Math.min(partBytes - filled, chunk.byteLength - at);
      part.set(chunk.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
      if (filled === partBytes) {
        const full = part;
        part = undefined;
        filled = 0;
        yield full;
      }
    }
  }
  if (part && filled > 0) yield part.subarray(0, filled);
}

/** The range asked for, clamped to a document of `size` bytes; the whole document when none is asked. */
export function clampRange(size: number, range?: ByteRange): ByteRange {
  if (!range) return { offset: 0, length: size };
  const offset = Math.min(Math.max(0, range.offset), size);
  return { offset, length: Math.max(0, Math.min(range.length, size - offset)) };
}

/** A stream of the given chunks, read as its reader asks for them. */
export function streamOf(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
