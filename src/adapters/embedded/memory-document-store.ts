/**
 * Documents kept in memory, for tests and stacks without a disk. Keyed by their SHA-256, as the
 * file store is, so that tests meet the same sharing of keys as `npm start`: the same bytes put
 * twice are one document. It counts the puts of each, so that a refused write can be taken back
 * (discard) without losing the same bytes put for another template, and tests can see that a
 * refusal left nothing behind.
 */
import { clampRange, countedChunks, streamOf } from '../../lib/byte-stream.js';
import type { ByteRange, DocumentBody, DocumentSource, DocumentStore, StoredDocument } from '../../ports/document-store.js';

/** Reads of a stored document hand out windows of this size, as a store on disk or R2 would. */
const READ_CHUNK_BYTES = 64 * 1024;

export class MemoryDocumentStore implements DocumentStore {
  private readonly documents = new Map<string, Uint8Array>();
  /** How many puts of each document have not been taken back. */
  private readonly puts = new Map<string, number>();

  async put(source: DocumentSource, options: { maxBytes: number }): Promise<StoredDocument> {
    const { chunks, tally } = countedChunks(source, options.maxBytes);
    const received: Uint8Array[] = [];
    // Copied as they arrive: a producer may reuse its buffers once a chunk is read.
    for await (const chunk of chunks) received.push(chunk.slice());
    const { size, sha256 } = tally();
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of received) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    this.documents.set(sha256, bytes);
    this.puts.set(sha256, (this.puts.get(sha256) ?? 0) + 1);
    return { key: sha256, size, sha256 };
  }

  async get(key: string, range?: ByteRange): Promise<DocumentBody | null> {
    const bytes = this.documents.get(key);
    if (!bytes) return null;
    const part = clampRange(bytes.byteLength, range);
    return { body: streamOf(windows(bytes.subarray(part.offset, part.offset + part.length))), size: bytes.byteLength, range: part };
  }

  async delete(key: string): Promise<void> {
    this.documents.delete(key);
    this.puts.delete(key);
  }

  async discard(stored: StoredDocument): Promise<void> {
    const left = (this.puts.get(stored.key) ?? 0) - 1;
    if (left > 0) this.puts.set(stored.key, left);
    else await this.delete(stored.key);
  }

  /** How many documents are kept (tests check that a refused write left none). */
  get count(): number {
    return this.documents.size;
  }
}

async function* windows(bytes: Uint8Array) {
  for (let at = 0; at < bytes.byteLength; at += READ_CHUNK_BYTES) yield bytes.slice(at, at + READ_CHUNK_BYTES);
}
