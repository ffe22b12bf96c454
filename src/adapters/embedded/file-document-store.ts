/**
 * Documents as files in one folder (DATA_DIR/documents under `npm start`), each named after its
 * SHA-256 (document-file-path.ts): the same bytes put twice are one file. A document is written to
 * a temporary file as its bytes arrive and renamed into place once whole, so a reader finds either
 * nothing or all of it; a write that fails or runs past its limit removes its temporary file.
 * A read hands the file out as the reader asks for it (file-read-stream.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { clampRange, countedChunks } from '../../lib/byte-stream.js';
import type { ByteRange, DocumentBody, DocumentSource, DocumentStore, StoredDocument } from '../../ports/document-store.js';
import { documentFilePath } from './document-file-path.js';
import { fileReadStream } from './file-read-stream.js';

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
      // A SHA-256 in hex is a key: it always names a file.
      await rename(incoming, documentFilePath(this.folder, sha256)!);
      return { key: sha256, size, sha256 };
    } catch (err) {
      await file.close().catch(() => {});
      await rm(incoming, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<DocumentBody | null> {
    const path = documentFilePath(this.folder, key);
    if (!path) return null;
    // Opened before its size is read, so the size and the bytes are those of one file even if it is deleted meanwhile.
    const file = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!file) return null;
    const { size } = await file.stat();
    const part = clampRange(size, range);
    return { body: fileReadStream(file, part), size, range: part };
  }

  async delete(key: string): Promise<void> {
    const path = documentFilePath(this.folder, key);
    if (path) await rm(path, { force: true });
  }

  /**
   * Keeps the file: it is named by its SHA-256, and the same bytes may be another template's PDF,
   * put before or since, which nothing here counts. A refused import's PDF may so stay on disk,
   * unreferenced, as one copy however often it was sent.
   */
  async discard(_stored: StoredDocument): Promise<void> {}
}
