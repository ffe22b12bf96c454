/**
 * Documents in a Cloudflare R2 bucket, reached through the Workers' `DOCUMENTS` binding. R2 cannot
 * rename an object, so each document is written once under a key of its own (`documents/<id>`).
 *
 * A stream of unknown length cannot be handed to `put`, so it goes up as a multipart upload: parts
 * of exactly PART_BYTES (R2 wants every part but the last the same size, and at least 5 MiB), one
 * held at a time. A document that ends inside its first part is put in one call instead. An upload
 * that fails or runs past its limit is aborted, and R2 keeps nothing of it.
 */
import { createHash } from 'node:crypto';
import type { R2Bucket, R2ObjectBody } from '@cloudflare/workers-types/index.js';
import { clampRange, countedChunks, partsOf } from '../../lib/byte-stream.js';
import { randomBase62 } from '../../lib/crypto.js';
import {
  type ByteRange,
  type DocumentBody,
  type DocumentSource,
  type DocumentStore,
  DocumentTooLarge,
  type StoredDocument,
} from '../../ports/document-store.js';

/** R2's smallest part (but the last). */
export const PART_BYTES = 5 * 1024 * 1024;

export class R2DocumentStore implements DocumentStore {
  constructor(private readonly bucket: R2Bucket) {}

  async put(source: DocumentSource, options: { maxBytes: number }): Promise<StoredDocument> {
    const key = `documents/${randomBase62(24)}`;
    if (source instanceof Uint8Array) {
      if (source.byteLength > options.maxBytes) throw new DocumentTooLarge(options.maxBytes);
      const sha256 = createHash('sha256').update(source).digest('hex');
      return this.putWhole(key, source, sha256);
    }
    const { chunks, tally } = countedChunks(source, options.maxBytes);
    const parts = partsOf(chunks, PART_BYTES);
    const first = await parts.next();
    const firstPart = first.done ? new Uint8Array(0) : first.value;
    if (firstPart.byteLength < PART_BYTES) {
      // A short first part is the whole document: reading on only finishes the count and the hash.
      await parts.next();
      return this.putWhole(key, firstPart, tally().sha256);
    }
    return this.putInParts(key, firstPart, parts, tally);
  }

  private async putWhole(key: string, bytes: Uint8Array, sha256: string): Promise<StoredDocument> {
    // R2 checks the bytes it received against the SHA-256 and refuses the put if they differ.
    await this.bucket.put(key, bytes, { sha256, customMetadata: { sha256, size: String(bytes.byteLength) } });
    return { key, size: bytes.byteLength, sha256 };
  }

  /**
   * R2 fixes an object's metadata when its multipart upload is created, before the hash is known:
   * such a document's SHA-256 lives in Postgres with its key, and R2 knows its size.
   */
  private async putInParts(key: string, firstPart: Uint8Array, rest: AsyncGenerator<Uint8Array>, tally: () => { size: number; sha256: string }) {
    const upload = await this.bucket.createMultipartUpload(key);
    try {
      const uploaded = [await upload.uploadPart(1, firstPart)];
      for await (const part of rest) uploaded.push(await upload.uploadPart(uploaded.length + 1, part));
      await upload.complete(uploaded);
    } catch (err) {
      await rest.return(undefined).catch(() => {});
      await upload.abort().catch(() => {});
      throw err;
    }
    const { size, sha256 } = tally();
    return { key, size, sha256 };
  }

  async get(key: string, range?: ByteRange): Promise<DocumentBody | null> {
    if (range && range.length <= 0) return this.emptyPart(key, range);
    let object: R2ObjectBody | null;
    try {
      object = await this.bucket.get(key, range ? { range: { offset: range.offset, length: range.length } } : undefined);
    } catch (err) {
      // R2 refuses a range that starts at or past the end (Miniflare's local R2 with an unnamed
      // error); only the size tells such a range from a failure.
      const empty = range ? await this.emptyPart(key, range) : undefined;
      if (empty === null || (empty && range!.offset >= empty.size)) return empty;
      throw err;
    }
    if (!object) return null;
    return { body: object.body as unknown as ReadableStream<Uint8Array>, size: object.size, range: clampRange(object.size, range) };
  }

  /** Nothing of the document, with its size: for a range that asks for nothing or starts past the end. */
  private async emptyPart(key: string, range: ByteRange): Promise<DocumentBody | null> {
    const object = await this.bucket.head(key);
    if (!object) return null;
    return { body: new ReadableStream({ start: (controller) => controller.close() }), size: object.size, range: clampRange(object.size, range) };
  }

  async delete(key: string): Promise<void> {
    await this.bucket.delete(key);
  }

  /** The object is this put's alone (its key is drawn per put), so a refused write can go whole. */
  async discard(stored: StoredDocument): Promise<void> {
    await this.bucket.delete(stored.key);
  }
}
