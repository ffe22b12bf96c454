/**
 * The PDF work over the document store: the port's calls name documents by key, and this reads
 * the original and writes the finished file where the work runs (the PDF Worker, `npm start`'s
 * process, a test), so that no PDF crosses a binding. The work itself (pdf-lib, the seal) takes
 * and gives bytes, and may run elsewhere still: in a worker thread (threaded-pdf-maker.ts).
 */
import type { PageSize } from '../data/schema.js';
import { readWholeDocument } from '../lib/whole-document.js';
import { MAX_FINISHED_DOCUMENT_BYTES } from '../ports/document-limits.js';
import type { DocumentStore } from '../ports/document-store.js';
import type { FinishRequest, PdfMaker } from '../ports/pdf-maker.js';

/** A finish request with the original's bytes, read from the store. */
export type FinishWork = Omit<FinishRequest, 'originalKey'> & { original: Uint8Array };

/**
 * What the work makes: what follows the original in the finished file (the drawn values, the
 * certificate and the seal, as incremental updates), with the whole file's size and SHA-256.
 */
export type MadeDocument = { appended: Uint8Array; size: number; sha256: string; signedContentSha256: string };

/** The PDF work on bytes in hand. */
export type PdfWork = {
  pageSizes(bytes: Uint8Array): Promise<PageSize[] | null>;
  finish(request: FinishWork): Promise<MadeDocument>;
};

export function storedPdfMaker(documents: DocumentStore, work: PdfWork): PdfMaker {
  return {
    async pageSizes(key) {
      const bytes = await readWholeDocument(documents, key);
      return bytes ? work.pageSizes(bytes) : null;
    },
    async finish({ originalKey, ...request }) {
      // pdf-lib reads a document whole; this is the one copy of the original the work holds.
      const original = await readWholeDocument(documents, originalKey);
      if (!original) throw new Error(`The envelope's original document (${originalKey}) is not in the document store.`);
      const made = await work.finish({ ...request, original });
      // The file is the original as stored, streamed again, then what the work appended: never joined in memory.
      const stored = await documents.put(followedBy(documents, originalKey, made.appended), { maxBytes: MAX_FINISHED_DOCUMENT_BYTES });
      if (stored.sha256 !== made.sha256 || stored.size !== made.size) {
        throw new Error(`The finished PDF of envelope ${request.envelopeId} was stored with another hash than it was made with.`);
      }
      return { ...stored, signedContentSha256: made.signedContentSha256 };
    },
  };
}

async function* followedBy(documents: DocumentStore, key: string, appended: Uint8Array): AsyncGenerator<Uint8Array> {
  const original = await documents.get(key);
  if (!original) throw new Error(`The original document (${key}) left the document store while its finished copy was made.`);
  yield* original.body as unknown as AsyncIterable<Uint8Array>;
  yield appended;
}
