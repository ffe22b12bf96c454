/**
 * The PDF work: reading an uploaded template's pages, making an envelope's finished, sealed PDF,
 * and drawing earlier signers' values for the next signer's copy. pdf-lib, its fonts and the CMS
 * code behind the seal are most of the service's code by size, and few API requests need them (a
 * template import, a typed signature's check, a filled copy), so the deployed service keeps them in
 * a Worker of their own (src/entries/pdf-worker.ts), reached through a service binding; the seal's
 * private key lives only there. On Node the same work runs in the process or a worker thread (src/pdf/inline-pdf-maker.ts).
 *
 * Documents are named by their key in the document store, never passed as bytes: the maker reads
 * the original and writes the finished file in its own runtime, so no PDF crosses the binding. A
 * next signer's filled copy is not stored: only its update comes back, the values' drawing, and the
 * caller streams the original from the store before it.
 */
import type { FieldType, PageSize } from '../data/schema.js';
import type { StoredDocument } from './document-store.js';

export type FinishedField = {
  type: FieldType;
  /** 1-based page; x, y, width, height in PDF points measured from the page's TOP-LEFT corner. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** signature/initials: a typed value as plain text, or a drawn one as 'data:image/png;base64,...'; checkbox: 'true' | 'false'; date_signed: 'YYYY-MM-DD'; date: the date as the envelope's language writes it; radio: the option chosen; others: text. null = left empty (optional field). */
  value: string | null;
  /** radio: each option's value and box (same measure as the field's); the chosen one is marked. */
  options?: { value: string; x: number; y: number; width: number; height: number }[];
};

/**
 * The sizes in points the finished PDF draws a field's text at: as large as its box's height
 * allows up to `max`, smaller down to `min` to fit its width. A typed signature has a smallest
 * size of its own, so that it stays readable as a signature; one that would need less is refused.
 */
export const DRAWN_TEXT_SIZES = { value: { max: 12, min: 6 }, signature: { max: 48, min: 12 } } as const;

/** A typed signature or initials, and the size in points of the field it goes in. */
export type TypedSignature = { text: string; width: number; height: number };

export type CertificateRecipient = {
  name: string;
  email: string;
  role: string;
  kind: 'signer' | 'cc';
  /** What happened, in order: e.g. { what: 'Sent', at, ip: null, userAgent: null }, 'Viewed', 'Consented (esign-consent-2026-11)', 'Signed', 'Declined: <reason>'. */
  events: { what: string; at: Date; ip: string | null; userAgent: string | null }[];
};

/** What the finished PDF is made of; the seal, its time-stamp and the fonts are the maker's own. */
export type FinishRequest = {
  /** The template's PDF as it was sent: its key in the document store. */
  originalKey: string;
  envelopeId: string;
  title: string;
  senderEmail: string;
  /** The company the envelope was sent for, as its brand names it to signers. */
  senderName: string;
  fields: FinishedField[];
  recipients: CertificateRecipient[];
  consentVersion: string;
  consentText: string;
  /** Hex of the original. */
  originalSha256: string;
  completedAt: Date;
};

/** A copy of the document as sent with what earlier signers put on it, for the signer whose turn it is. */
export type FilledCopyRequest = {
  /** The template's PDF as it was sent: its key in the document store. */
  originalKey: string;
  /** Hex of the original. */
  originalSha256: string;
  /** The earlier signers' values, drawn as the finished PDF draws them. */
  fields: FinishedField[];
};

/** The finished PDF as stored: its key, size and hex SHA-256 of the whole file. */
export type FinishedDocument = StoredDocument & {
  /** Hex SHA-256 of the signed content: the original with the fields drawn, which is the first part of the file (see src/pdf/finish-document.ts). */
  signedContentSha256: string;
};

export interface PdfMaker {
  /** The page sizes in points of the stored PDF `key`, or null when it is not a PDF that can be read (or not there). */
  pageSizes(key: string): Promise<PageSize[] | null>;
  /**
   * The finished PDF: the values drawn, the certificate pages appended and, where the maker has a
   * seal, sealed (time-stamped when it has an authority). Throws when the seal's key does not match
   * its certificate or the authority fails, so the job fails and is retried. The finished file is
   * written to the document store by the maker itself.
   */
  finish(request: FinishRequest): Promise<FinishedDocument>;
  /**
   * Whether each typed signature fits its field at the smallest size a signature is drawn at,
   * measured with the fonts and shaping the finished PDF draws it with.
   */
  typedSignaturesFit(signatures: TypedSignature[]): Promise<boolean[]>;
  /**
   * The incremental update that, written after the original's bytes, draws `fields` on it: the
   * same drawing as the finished PDF's values. Only this update comes back (a few kilobytes, where
   * the original may be megabytes); the caller streams the original from the store before it.
   * Throws when the original is not there or is not the one `originalSha256` names.
   */
  filledCopy(request: FilledCopyRequest): Promise<Uint8Array>;
}
