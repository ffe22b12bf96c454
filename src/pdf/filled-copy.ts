import type { FinishedField } from '../ports/pdf-maker.js';
import { drawValues, type OriginalDocument, opened } from './finish-document.js';
import type { FontSource } from './fonts/font-source.js';

export type FilledCopyInput = {
  /** The template's PDF as it was sent: its bytes, or how to read them (finish-document.ts). */
  original: OriginalDocument;
  /** Hex SHA-256 of the original: the update is made for those very bytes. */
  originalSha256: string;
  /** What the signers before this one put on the document, as the finished PDF draws it. */
  fields: FinishedField[];
  fonts: FontSource;
};

/**
 * What a next signer's copy of the document adds to the original: one incremental update drawing
 * the earlier signers' values, the same update the finished PDF begins with (without its metadata,
 * as nothing is signed yet). The copy is the original's bytes followed by these; the caller streams
 * the one, then the other, so only this update (a few kilobytes and the fonts' subsets) is held.
 */
export async function filledCopy(input: FilledCopyInput): Promise<Uint8Array> {
  // Loaded here, not at the top: pdf-lib stays out of the Worker's request-path module graph.
  const lib = await import('pdf-lib');
  const { pdf, revisions } = await opened(lib, input.original, input.originalSha256);
  await drawValues(lib, pdf, input.fonts, input.fields);
  await revisions.append();
  return revisions.appended();
}
