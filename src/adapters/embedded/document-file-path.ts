/**
 * Where a document of the file store lives: DATA_DIR/documents, one file named after its SHA-256.
 * One rule for every reader of that folder (the store, and the PDF thread that opens originals
 * itself), so that no key names a file the store would not: a key is 64 lowercase hex digits and
 * nothing else, never a path, a dot-file (a write still arriving) or `..`.
 */
import { join } from 'node:path';

const KEY = /^[0-9a-f]{64}$/;

/** The file of document `key` in `folder`; null when `key` is not a key, so there is no such document. */
export function documentFilePath(folder: string, key: string): string | null {
  return KEY.test(key) ? join(folder, key) : null;
}
