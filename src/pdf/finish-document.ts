import type { PDFDocument } from 'pdf-lib';
import { sha256Hex } from '../lib/crypto.js';
import type { FinishedDocument, FinishRequest } from '../ports/pdf-maker.js';
import { type Certificate, appendCertificatePages } from './certificate-pages.js';
import { drawFields, fieldTexts } from './draw-fields.js';
import { drawableText } from './drawable-text.js';
import type { FontSource } from './fonts/font-source.js';
import { Typesetter } from './fonts/typesetter.js';
import { appendIncrementalUpdate } from './incremental-update.js';
import { type SealIdentity, sealedByLines } from './seal-identity.js';
import { sealPdf } from './seal-pdf.js';
import type { Timestamper } from './timestamp.js';

export type { CertificateRecipient, FinishedDocument, FinishedField } from '../ports/pdf-maker.js';

/** What the port's request is made of, with the maker's own seal, time-stamp and fonts. */
export type FinishInput = FinishRequest & {
  /** Lines naming the sealing certificate, printed on the certificate page; by default, the seal's subject and fingerprint. */
  sealedBy?: string[];
  /** Seals the finished file (PAdES B-B) as its last revision, signing time `completedAt`. */
  seal?: SealIdentity;
  /** With `seal`: a time-stamping authority's client, making the seal PAdES B-T. */
  timestamp?: Timestamper;
  /** The font files text is drawn with (node_modules on Node, the PDF Worker's assets in workerd). */
  fonts: FontSource;
};

const PRODUCER = 'E-Signing API';

/**
 * The finished copy of an envelope: the original with every value drawn at its field, then the
 * certificate of completion on pages of its own, then (given a sealing identity) the service's
 * seal over all of it. The certificate and the seal are appended as incremental updates, so the signed content stays a byte-for-byte prefix of the file and its hash, printed on
 * the certificate, can be checked from the file alone. The same input gives the same bytes (all
 * dates are `completedAt`), so a finished copy can be made again and compared by hash.
 *
 * Throws only when the original cannot be opened or a field is not on one of its pages: the
 * values themselves (anything a signer typed or drew) are drawn harmlessly whatever they hold.
 */
export async function finishDocument(input: FinishInput): Promise<FinishedDocument> {
  if (Number.isNaN(input.completedAt.getTime())) throw new RangeError('completedAt is not a valid date.');
  // Loaded here, not at the top: pdf-lib stays out of the Worker's request-path module graph.
  const lib = await import('pdf-lib');
  const pdf = await lib.PDFDocument.load(input.original, { updateMetadata: false });
  flattenForm(lib, pdf);
  // Each revision embeds the font subsets its own text uses, before it is saved.
  const fieldType = await Typesetter.for(lib, pdf, input.fonts, fieldTexts(input.fields));
  await drawFields(lib, pdf, fieldType, input.fields);
  await fieldType.finish();
  setMetadata(pdf, input);
  const documentPages = pdf.getPageCount();
  // Without object streams the prefix ends in a classic cross-reference table, which the update extends.
  const signedContent = await pdf.save({ useObjectStreams: false });
  const baseLargestObjectNumber = pdf.context.largestObjectNumber;
  const signedContentSha256 = await sha256Hex(signedContent);

  const certificate: Certificate = {
    envelopeId: input.envelopeId,
    title: input.title,
    senderEmail: input.senderEmail,
    senderName: input.senderName,
    completedAt: input.completedAt,
    documentPages,
    originalSha256: input.originalSha256,
    signedContentSha256,
    signedContentBytes: signedContent.length,
    consentVersion: input.consentVersion,
    consentText: input.consentText,
    sealedBy: input.sealedBy ?? (input.seal && sealedByLines(input.seal, input.timestamp)),
    recipients: input.recipients,
  };
  const certificateType = await Typesetter.for(lib, pdf, input.fonts, textsOf(certificate));
  appendCertificatePages(lib, pdf, certificateType, certificate);
  await certificateType.finish();
  const certified = await appendIncrementalUpdate(lib, pdf, signedContent, baseLargestObjectNumber);
  // Sealed last, so that the seal covers the certificate too and nothing is added after it.
  const bytes = input.seal ? await sealPdf(certified, input.seal, input.completedAt, input.timestamp) : certified;
  return { bytes, sha256: await sha256Hex(bytes), signedContentSha256 };
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
