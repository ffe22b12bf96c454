/**
 * The PDF work over the document store: the port's calls name documents by key, and this reads
 * the original and writes the finished file where the work runs (the PDF Worker, `npm start`'s
 * process, a test), so that no PDF crosses a binding. The work itself (pdf-lib, the seal) takes
 * and gives bytes, and may run elsewhere still: in a worker thread (threaded-pdf-maker.ts), which
 * may read the original from its file itself.
 */
import type { PageSize } from '../data/schema.js';
import type { OriginalDocument } from './finish-document.js';
import { readWholeDocument } from '../lib/whole-document.js';
import { MAX_FINISHED_DOCUMENT_BYTES } from '../ports/document-limits.js';
import type { DocumentStore } from '../ports/document-store.js';
import type { FilledCopyRequest, FinishRequest, PdfMaker } from '../ports/pdf-maker.js';

/** A finish request with the original's bytes, or how to read them from the store (finish-document.ts). */
export type FinishWork = Omit<FinishRequest, 'originalKey'> & { original: OriginalDocument };

/** A filled copy's request with the original's bytes, or how to read them (filled-copy.ts). */
export type FilledCopyWork = Omit<FilledCopyRequest, 'originalKey'> & { original: OriginalDocument };

/**
 * What the work makes: what follows the original in the finished file (the drawn values, the
 * certificate and the seal, as incremental updates), with the whole file's size and SHA-256.
 */
export type MadeDocument = { appended: Uint8Array; size: number; sha256: string; signedContentSha256: string };

/** The PDF work on bytes in hand. */
export type PdfWork = {
  pageSizes(bytes: Uint8Array): Promise<PageSize[] | null>;
  finish(request: FinishWork): Promise<MadeDocument>;
  /** The update drawing the values (PdfMaker.filledCopy). */
  filledCopy(request: FilledCopyWork): Promise<Uint8Array>;
};

/** The PDF work on documents named by key, read by the work wherever it runs; nothing is written. */
export type PdfWorkByKey = {
  pageSizes(key: string): Promise<PageSize[] | null>;
  finish(request: FinishRequest): Promise<MadeDocument>;
  filledCopy(request: FilledCopyRequest): Promise<Uint8Array>;
};

/** The maker's calls on documents; the check of typed signatures needs only the fonts (typed-signature-fit.ts). */
export type DocumentPdfMaker = Omit<PdfMaker, 'typedSignaturesFit'>;

/** A stored document's bytes whole, or null when there is no such document. */
export type WholeDocumentReader = (key: string) => Promise<Uint8Array | null>;

export function storedPdfMaker(documents: DocumentStore, work: PdfWork): DocumentPdfMaker {
  return pdfMakerWritingTo(
    documents,
    readingWhole((key) => readWholeDocument(documents, key), work),
  );
}

/** `work` on the documents `read` reads: a document that is not there has no page sizes, and no finished copy. */
export function readingWhole(read: WholeDocumentReader, work: PdfWork): PdfWorkByKey {
  return {
    async pageSizes(key) {
      const bytes = await read(key);
      return bytes ? work.pageSizes(bytes) : null;
    },
    // pdf-lib reads a document whole: read when the work asks, so that nothing here holds it.
    finish: ({ originalKey, ...request }) => work.finish({ ...request, original: originalAt(read, originalKey) }),
    filledCopy: ({ originalKey, ...request }) => work.filledCopy({ ...request, original: originalAt(read, originalKey) }),
  };
}

/** How to read the original `key` names, when the work asks for it. */
const originalAt = (read: WholeDocumentReader, key: string) => async () => {
  const original = await read(key);
  if (!original) throw new Error(`The envelope's original document (${key}) is not in the document store.`);
  return original;
};

/** The maker over `work` that reads its originals where it runs, writing each finished file to `documents` here. */
export function pdfMakerWritingTo(documents: DocumentStore, work: PdfWorkByKey): DocumentPdfMaker {
  return {
    pageSizes: (key) => work.pageSizes(key),
    // Nothing to write: the copy is answered to the signer, the original streamed before the update.
    filledCopy: (request) => work.filledCopy(request),
    async finish(request) {
      const made = await work.finish(request);
      // The file is the original as stored, streamed again, then what the work appended: never joined in memory.
      const stored = await documents.put(followedBy(documents, request.originalKey, made.appended), { maxBytes: MAX_FINISHED_DOCUMENT_BYTES });
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
