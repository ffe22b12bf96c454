/**
 * Where documents live: the templates' PDFs and the finished, sealed ones. Postgres keeps each
 * document's key, size and SHA-256, never its bytes: a document crosses no database connection and
 * no binding between Workers, and is read and written as a stream, so an isolate holds a window of
 * it, not the whole. Cloudflare R2 through a binding on the Workers (`wrangler dev` runs it
 * locally), files under DATA_DIR on `npm start`, memory in tests.
 */

/** A stored document: the store's key, and what was counted and hashed as it was written. */
export type StoredDocument = { key: string; size: number; sha256: string };

/** Bytes `offset` to `offset + length - 1` of a document. */
export type ByteRange = { offset: number; length: number };

/** A document, or the part of it asked for, as a stream; `size` is the whole document's. */
export type DocumentBody = { body: ReadableStream<Uint8Array>; size: number; range: ByteRange };

/** What a write accepts: bytes already in memory, or a stream written as it arrives. */
export type DocumentSource = Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A write that ran past its `maxBytes`: nothing of it is kept. */
export class DocumentTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The document is larger than ${maxBytes} bytes.`);
  }
}

export interface DocumentStore {
  /**
   * Writes a document as its bytes arrive, counting and hashing them on the way, and answers its
   * key once the whole is stored. Past `maxBytes` it stops, keeps nothing and throws DocumentTooLarge.
   * A write that fails keeps nothing either.
   */
  put(source: DocumentSource, options: { maxBytes: number }): Promise<StoredDocument>;
  /** The document, or `range` of it (clamped to its end); null when there is no such document. */
  get(key: string, range?: ByteRange): Promise<DocumentBody | null>;
  /** Forgets a document; a key that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Takes back a write whose use was refused (an import whose template breaks a rule), so that a
   * refusal leaves no bytes behind. Unlike `delete`, it keeps the document when its key may name
   * the same bytes put for something else: R2 deletes it (each put has a key of its own); the file
   * store keeps it (its keys are SHA-256s, and identical bytes may be another template's); the
   * memory store forgets it once every put of those bytes has been taken back.
   */
  discard(stored: StoredDocument): Promise<void>;
}
