/**
 * The PDF work: reading an uploaded template's pages, and making an envelope's finished, sealed
 * PDF. pdf-lib, its fonts and the CMS code behind the seal are most of the service's code by size,
 * and no API request but a template import needs them, so the deployed service keeps them in a
 * Worker of their own (src/entries/pdf-worker.ts), reached through a service binding; the seal's
 * private key lives only there. On Node the same work runs in the process (src/pdf/local-pdf-maker.ts).
 */
import type { PageSize } from '../data/schema.js';
import type { FinishedDocument, FinishInput } from '../pdf/finish-document.js';

/** What the finished PDF is made of; the seal, its time-stamp and the fonts are the maker's own. */
export type FinishRequest = Omit<FinishInput, 'seal' | 'timestamp' | 'sealedBy' | 'fonts'>;

export interface PdfMaker {
  /** The page sizes of a PDF in points, or null when the bytes are not a PDF that can be read. */
  pageSizes(bytes: Uint8Array): Promise<PageSize[] | null>;
  /**
   * The finished PDF: the values drawn, the certificate pages appended and, where the maker has a
   * seal, sealed (time-stamped when it has an authority). Throws when the seal's key does not match
   * its certificate or the authority fails, so the job fails and is retried.
   */
  finish(request: FinishRequest): Promise<FinishedDocument>;
}
