import { createHash, type Hash } from 'node:crypto';
import type { PDFDocument, PDFObject, PDFRef } from 'pdf-lib';
import { toHex } from '../lib/crypto.js';
import { continueNumbering, endOf, type FileEnd, writeRevision } from './incremental-update.js';

type PdfLib = typeof import('pdf-lib');
type Seen = { object: PDFObject; print: string };

/**
 * A PDF growing by incremental updates: its original bytes, never copied or changed, then each
 * update as it is written. What an update holds is found by comparison, not by knowing what pdf-lib
 * touches: every indirect object is fingerprinted as the file last stored it, and an update writes
 * the objects that are new or whose serialization changed (a page whose content or resources were
 * drawn on, the page tree, the catalog, the Info dictionary, an indirect Annots or Fonts). Objects
 * pdf-lib dropped (a flattened form's fields) are left where they are, referenced by nothing.
 *
 * The original is not kept: its hash is taken once, as a state that each later digest continues
 * from, so that the caller may let go of its bytes once pdf-lib has parsed them (pdf-lib copies
 * every stream it reads: a document held besides would be held twice). The updates are kept, and
 * hashes are computed over the parts in turn, never over the file in one piece.
 */
export class Revisions {
  private readonly updates: Uint8Array[] = [];
  /** SHA-256 fed with the original's bytes, never finished itself: each digest continues a copy of it. */
  private readonly originalHash: Hash;
  private readonly originalSize: number;
  private end: FileEnd;
  private readonly seen = new Map<number, Seen>();

  /** `pdf` is `original` as pdf-lib just loaded it, before anything was changed or added. */
  constructor(
    private readonly lib: PdfLib,
    private readonly pdf: PDFDocument,
    original: Uint8Array,
  ) {
    this.originalHash = createHash('sha256').update(original);
    this.originalSize = original.length;
    this.end = endOf(original);
    continueNumbering(pdf, this.end);
    this.remember(pdf.context.enumerateIndirectObjects());
  }

  /** The whole file's length so far. */
  get size(): number {
    return this.end.size;
  }

  /** Everything written after the original, in one array (the original is the caller's already). */
  appended(): Uint8Array {
    const out = new Uint8Array(this.end.size - this.originalSize);
    let at = 0;
    for (const part of this.updates) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /**
   * Writes what changed since the last update (or since loading) as one more update and answers its
   * bytes: the array kept as the file's last part, so a seal may still fill in its placeholders.
   */
  async append(): Promise<Uint8Array> {
    await this.pdf.flush();
    const changed = this.pdf.context.enumerateIndirectObjects().filter(([ref, object]) => {
      const seen = this.seen.get(ref.objectNumber);
      return !seen || seen.object !== object || seen.print !== this.printOf(object);
    });
    const { bytes, end } = writeRevision(this.lib, this.pdf, this.end, changed);
    this.updates.push(bytes);
    this.end = end;
    this.remember(changed);
    return bytes;
  }

  /**
   * SHA-256 of the file so far, leaving out the bytes from `skip[0]` up to `skip[1]` (a seal's own
   * value, in an update: the original's bytes are hashed whole or not at all).
   */
  digest(skip?: [number, number]): Uint8Array {
    const [from, to] = skip ?? [Infinity, Infinity];
    if (from < this.originalSize) throw new RangeError('A digest leaves out bytes of an update only, never of the original.');
    const hash = this.originalHash.copy();
    let at = this.originalSize;
    for (const part of this.updates) {
      if (to <= at || from >= at + part.length) hash.update(part);
      else {
        hash.update(part.subarray(0, Math.max(0, from - at)));
        hash.update(part.subarray(Math.min(part.length, to - at)));
      }
      at += part.length;
    }
    return new Uint8Array(hash.digest());
  }

  sha256(): string {
    return toHex(this.digest());
  }

  private remember(objects: [PDFRef, PDFObject][]) {
    for (const [ref, object] of objects) this.seen.set(ref.objectNumber, { object, print: this.printOf(object) });
  }

  /**
   * A fingerprint of how `object` serializes. A stream read from the file keeps its contents as
   * they were (pdf-lib replaces such a stream rather than change its bytes), so its dictionary
   * stands for it, and an image of megabytes is not copied to be compared.
   */
  private printOf(object: PDFObject): string {
    const serialized = object instanceof this.lib.PDFRawStream ? object.dict : object;
    const bytes = new Uint8Array(serialized.sizeInBytes());
    serialized.copyBytesInto(bytes, 0);
    return createHash('sha1').update(bytes).digest('base64');
  }
}
