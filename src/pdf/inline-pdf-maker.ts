import type { DocumentStore } from '../ports/document-store.js';
import type { PdfMaker } from '../ports/pdf-maker.js';
import type { FontSource } from './fonts/font-source.js';
import type { SealSource } from './seal-pem.js';
import { type PdfWork, storedPdfMaker } from './stored-pdf-maker.js';
import { typedSignatureFitter } from './typed-signature-fit.js';

/** The seal a maker uses, read at each use: a test stack may point it at another authority. */
export type SealSettings = { seal?: SealSource; timestampUrl?: string };

/**
 * The PDF work done inline, in the runtime that asks for it: the PDF Worker and the tests'
 * processes, reading and writing `documents` there.
 */
export function inlinePdfMaker(settings: SealSettings, fonts: FontSource, documents: DocumentStore): PdfMaker {
  return { ...storedPdfMaker(documents, inlinePdfWork(settings, fonts)), typedSignaturesFit: typedSignatureFitter(fonts) };
}

/**
 * The work on bytes in hand, inline or in a worker thread of `npm start` (threaded-pdf-maker.ts).
 * Each module is loaded on its first use; a runtime that never finishes a document never evaluates
 * pdf-lib or the CMS code.
 */
export function inlinePdfWork(settings: SealSettings, fonts: FontSource): PdfWork {
  return {
    async pageSizes(bytes) {
      const { readPageSizes } = await import('./inspect-document.js');
      return readPageSizes(bytes);
    },
    async finish(request) {
      const [{ finishDocument }, { sealIdentityOf }, { timestampAuthority }] = await Promise.all([
        import('./finish-document.js'),
        import('./seal-identity.js'),
        import('./timestamp.js'),
      ]);
      // A key that does not match its certificate is found here, on the first seal, and the job
      // fails (and is retried) rather than storing a copy whose seal would not verify.
      const seal = settings.seal ? await sealIdentityOf(settings.seal) : undefined;
      // With an authority configured, a seal without its time-stamp is never made.
      const timestamp = seal && settings.timestampUrl ? timestampAuthority(settings.timestampUrl) : undefined;
      return finishDocument({ ...request, seal, timestamp, fonts });
    },
    async filledCopy(request) {
      const { filledCopy } = await import('./filled-copy.js');
      return filledCopy({ ...request, fonts });
    },
  };
}
