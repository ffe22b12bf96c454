/**
 * Documents as files in one folder (DATA_DIR/documents under `npm start`), each named after its
 * SHA-256: the same bytes put twice are one file. A document is written to a temporary file as
 * its bytes arrive and renamed into place once whole, so a reader finds either nothing or all of
 * it; a write that fails or runs past its limit removes its temporary file.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { clampRange, countedChunks } from '../../lib/byte-stream.js';
import type { ByteRange, DocumentBody, DocumentSource, DocumentStore, StoredDocument } from '../../ports/document-store.js';

/** A key is a SHA-256 in hex, and nothing else ever names a file here. */
const KEY = /^[0-9a-f]{64}$/;
/** Temporary files start with a dot: no key does, so a half-written file is never found by a read. */
const INCOMING_PREFIX = '.incoming-';

export class FileDocumentStore implements DocumentStore {
  constructor(private readonly folder: string) {}

  async put(source: DocumentSource, options: { maxBytes: number }): Promise<StoredDocument> {
    await mkdir(this.folder, { recursive: true });
    const incoming = join(this.folder, `${INCOMING_PREFIX}${randomUUID()}`);
    const file = await open(incoming, 'wx');
    try {
      const { chunks, tally } = countedChunks(source, options.maxBytes);
      for await (const chunk of chunks) await file.write(chunk);
      // On disk before it has its name: a crash never leaves a named document shorter than its key says.
      await file.sync();
      await file.close();
      const { size, sha256 } = tally();
      await rename(incoming, join(this.folder, sha256));
      return { key: sha256, size, sha256 };
    } catch (err) {
      await file.close().catch(() => {});
      await rm(incoming, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<DocumentBody | null> {
    if (!KEY.test(key)) return null;
    // Opened before its size is read, so the size and the bytes are those of one file even if it is deleted meanwhile.
    const file = await open(join(this.folder, key), 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!file) return null;
    const { size } = await file.stat();
    const part = clampRange(size, range);
    if (part.length === 0) {
      await file.close();
      return { body: new ReadableStream({ start: (controller) => controller.close() }), size, range: part };
    }
    const stream = file.createReadStream({ start: part.offset, end: part.offset + part.length - 1 });
    return { body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, size, range: part };
  }

  async delete(key: string): Promise<void> {
    if (KEY.test(key)) await rm(join(this.folder, key), { force: true });
  }

  /**
   * Keeps the file: it is named by its SHA-256, and the same bytes may be another template's PDF,
   * put before or since, which nothing here counts. A refused import's PDF may so stay on disk,
   * unreferenced, as one copy however often it was sent.
   */
  async discard(_stored: StoredDocument): Promise<void> {}
}
