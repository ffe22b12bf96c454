import type { PDFDocument } from 'pdf-lib';
import type { FinishedField, FinishRequest } from '../ports/pdf-maker.js';
import { type Certificate, appendCertificatePages } from './certificate-pages.js';
import { drawFields, fieldTexts } from './draw-fields.js';
import { drawableText } from './drawable-text.js';
import type { FontSource } from './fonts/font-source.js';
import { Typesetter } from './fonts/typesetter.js';
import { Revisions } from './revisions.js';
import { type SealIdentity, sealedByLines } from './seal-identity.js';
import { sealRevision } from './seal-pdf.js';
import type { Timestamper } from './timestamp.js';

export type { CertificateRecipient, FinishedField } from '../ports/pdf-maker.js';

/** What the port's request is made of, with the original's bytes read from the store and the maker's own seal, time-stamp and fonts. */
export type FinishInput = Omit<FinishRequest, 'originalKey'> & {
  /**
   * The template's PDF as it was sent, whole (pdf-lib parses it, and the finished file begins with
   * it): its bytes, or how to read them. Read here, the bytes are held only until pdf-lib has parsed
   * them, so that the finish holds the document once, not twice.
   */
  original: OriginalDocument;
  /** Lines naming the sealing certificate, printed on the certificate page; by default, the seal's subject and fingerprint. */
  sealedBy?: string[];
  /** Seals the finished file (PAdES B-B) as its last revision, signing time `completedAt`. */
  seal?: SealIdentity;
  /** With `seal`: a time-stamping authority's client, making the seal PAdES B-T. */
  timestamp?: Timestamper;
  /** The font files text is drawn with (node_modules on Node, the PDF Worker's assets in workerd). */
  fonts: FontSource;
};

export type OriginalDocument = Uint8Array | (() => Promise<Uint8Array>);

/** The finished file is `original` followed by `appended`; the caller streams the one, then the other. */
export type FinishedUpdates = {
  /** The incremental updates that follow the original: the values, the certificate, the seal. */
  appended: Uint8Array;
  /** The whole file's length in bytes. */
  size: number;
  /** Hex SHA-256 of the whole file. */
  sha256: string;
  /** Hex SHA-256 of the signed content: the original and the update that draws the values, the file's first part. */
  signedContentSha256: string;
};

const PRODUCER = 'E-Signing API';

/**
 * The finished copy of an envelope: the original's bytes unchanged, then an incremental update
 * drawing every value at its field, then one adding the certificate of completion on pages of its
 * own, then (given a sealing identity) the service's seal over all of it. Whoever holds the file can
 * check that the original is unaltered (its bytes are the file's first, and their hash is printed on
 * the certificate), and so is the signed content (the original and the values' update). The same
 * input gives the same bytes (all dates are `completedAt`), so a finished copy can be made again and
 * compared by hash. Only the original's objects are parsed and only what changed is written: the
 * original is never copied or re-serialized.
 *
 * Throws only when the original cannot be opened (an encrypted one included), is not the one
 * `originalSha256` names, or a field is not on one of its pages: the values themselves (anything a
 * signer typed or drew) are drawn harmlessly whatever they hold.
 */
export async function finishDocument(input: FinishInput): Promise<FinishedUpdates> {
  if (Number.isNaN(input.completedAt.getTime())) throw new RangeError('completedAt is not a valid date.');
  // Loaded here, not at the top: pdf-lib stays out of the Worker's request-path module graph.
  const lib = await import('pdf-lib');
  const { pdf, revisions, originalBytes } = await opened(lib, input.original, input.originalSha256);
  // The certificate vouches for the original by this hash.
  const originalSha256 = revisions.sha256();

  await drawValues(lib, pdf, input.fonts, input.fields);
  setMetadata(pdf, input);
  const documentPages = pdf.getPageCount();
  await revisions.append();
  const signedContentSha256 = revisions.sha256();

  const certificate: Certificate = {
    envelopeId: input.envelopeId,
    title: input.title,
    senderEmail: input.senderEmail,
    senderName: input.senderName,
    completedAt: input.completedAt,
    documentPages,
    originalSha256,
    originalBytes,
    signedContentSha256,
    signedContentBytes: revisions.size,
    consentVersion: input.consentVersion,
    consentText: input.consentText,
    sealedBy: input.sealedBy ?? (input.seal && sealedByLines(input.seal, input.timestamp)),
    recipients: input.recipients,
  };
  const certificateType = await Typesetter.for(lib, pdf, input.fonts, textsOf(certificate));
  appendCertificatePages(lib, pdf, certificateType, certificate);
  await certificateType.finish();
  await revisions.append();
  // Sealed last, so that the seal covers the certificate too and nothing is added after it.
  if (input.seal) await sealRevision(lib, pdf, revisions, input.seal, input.completedAt, input.timestamp);
  return { appended: revisions.appended(), size: revisions.size, sha256: revisions.sha256(), signedContentSha256 };
}

/**
 * The values drawn at their fields, the form flattened: what the values' revision holds, in the
 * finished copy and in the copy a next signer downloads (filled-copy.ts), written by the caller.
 */
export async function drawValues(lib: typeof import('pdf-lib'), pdf: PDFDocument, fonts: FontSource, fields: FinishedField[]): Promise<void> {
  flattenForm(lib, pdf);
  // Each revision embeds the font subsets its own text uses, before it is written.
  const fieldType = await Typesetter.for(lib, pdf, fonts, fieldTexts(fields));
  await drawFields(lib, pdf, fieldType, fields);
  await fieldType.finish();
}

/**
 * The original parsed, and its hash taken: the bytes read here are not held once this returns.
 * They must be the very bytes `sha256` names, which the updates written after them are made for.
 */
export async function opened(lib: typeof import('pdf-lib'), original: OriginalDocument, sha256: string) {
  const bytes = typeof original === 'function' ? await original() : original;
  const pdf = await lib.PDFDocument.load(bytes, { updateMetadata: false });
  const revisions = new Revisions(lib, pdf, bytes);
  if (revisions.sha256() !== sha256.toLowerCase()) throw new Error('The original’s bytes do not have the SHA-256 given for it.');
  return { pdf, revisions, originalBytes: bytes.length };
}

/** A form left interactive would let anyone change what the signed copy shows. */
function flattenForm(lib: typeof import('pdf-lib'), pdf: PDFDocument) {
  const key = lib.PDFName.of('AcroForm');
  if (!pdf.catalog.has(key)) return;
  const form = pdf.getForm();
  try {
    form.flatten();
  } catch {
    // Fields whose appearance pdf-lib cannot regenerate keep the appearance the original gave them.
    form.flatten({ updateFieldAppearances: false });
  }
  pdf.catalog.delete(key);
  // pdf-lib 1.17 deletes a flattened field's widgets but leaves their references in the pages'
  // Annots, where they would point at nothing.
  for (const page of pdf.getPages()) {
    const annots = page.node.Annots();
    for (let i = (annots?.size() ?? 0) - 1; i >= 0; i--) {
      const entry = annots!.get(i);
      if (entry instanceof lib.PDFRef && pdf.context.lookup(entry) === undefined) annots!.remove(i);
    }
  }
}

/** Every string in `value` (the certificate's), cleaned as it will be drawn, for the typesetter to read their fonts. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [drawableText(value)];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value && typeof value === 'object' && !(value instanceof Date)) return Object.values(value).flatMap(textsOf);
  return [];
}

function setMetadata(pdf: PDFDocument, input: FinishInput) {
  pdf.setTitle(input.title);
  pdf.setSubject(`Signed: ${input.title}`);
  pdf.setAuthor(input.senderEmail);
  pdf.setCreator(PRODUCER);
  pdf.setProducer(PRODUCER);
  pdf.setKeywords(['envelope', input.envelopeId, 'signed']);
  pdf.setCreationDate(input.completedAt);
  pdf.setModificationDate(input.completedAt);
}
