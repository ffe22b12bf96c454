import { ObjectIdentifier, OctetString, UTCTime } from 'asn1js';
import type { PDFDict, PDFDocument } from 'pdf-lib';
import {
  Attribute,
  Certificate,
  ContentInfo,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignedAndUnsignedAttributes,
  SignedData,
  SignerInfo,
} from 'pkijs';
import { derOrdered, OID, signingCertificateV2 } from './cms-attributes.js';
import { Revisions } from './revisions.js';
import type { SealIdentity } from './seal-identity.js';
import type { Timestamper } from './timestamp.js';

/**
 * Room for the CMS signature in the /Contents hex string. The sealing certificate, its chain and
 * an RSA-4096 signature take a few KiB; a time-stamp token brings the TSA's certificates too. A
 * signature too long for this is refused, not truncated.
 */
export const SEAL_CONTENTS_BYTES = 16 * 1024;
export const TIMESTAMPED_SEAL_CONTENTS_BYTES = 32 * 1024;

type PdfLib = typeof import('pdf-lib');

/** Wide enough for any offset; the digits are written in place once the file's length is known. */
const PLACEHOLDER = 9_999_999_999;

const latin1 = (bytes: Uint8Array) => {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
};

/**
 * Seals the PDF that `revisions` has written so far with a PAdES baseline signature in one more
 * incremental update, so everything before it stays byte for byte what it was: the original and
 * the hashes printed on the certificate included. The revision adds an invisible signature field
 * on the first page and its signature dictionary; the signature covers the whole file but the
 * /Contents hex string it sits in, hashed part by part, the file never joined into one array.
 * Any later change to those bytes makes the seal fail in every PDF reader, which is the point: the
 * finished copy shows itself unaltered.
 *
 * B-B by default; B-T given a `timestamp` (an RFC 3161 time-stamping authority's client), whose
 * token over the signature value goes into the signature.
 *
 * The same input gives the same bytes with an RSA key and no time-stamp (PKCS#1 v1.5 signatures
 * are deterministic, and the only time written is `signingTime`); ECDSA signatures and time-stamp
 * tokens differ on every call.
 */
export async function sealRevision(
  lib: PdfLib,
  pdf: PDFDocument,
  revisions: Revisions,
  identity: SealIdentity,
  signingTime: Date,
  timestamp?: Timestamper,
): Promise<void> {
  const room = timestamp ? TIMESTAMPED_SEAL_CONTENTS_BYTES : SEAL_CONTENTS_BYTES;
  addSignatureField(lib, pdf, room, signingTime);
  const revision = await revisions.append();
  const start = revisions.size - revision.length;

  // Find the two placeholders in the revision just written (only the signature dictionary has them).
  const text = latin1(revision);
  const rangeAt = text.indexOf(`/ByteRange [ 0 ${PLACEHOLDER} `);
  const contentsAt = text.indexOf(`/Contents <${'0'.repeat(64)}`);
  if (rangeAt < 0 || contentsAt < 0) throw new Error('Seal: the signature dictionary was not written as expected.');
  const rangeStart = rangeAt + '/ByteRange '.length;
  const rangeEnd = text.indexOf(']', rangeAt) + 1;
  const hexStart = contentsAt + '/Contents '.length;
  const hexEnd = hexStart + 2 + room * 2;
  const byteRange = [0, start + hexStart, start + hexEnd, revisions.size - start - hexEnd];
  const rangeText = `[${byteRange.join(' ')}]`;
  const width = rangeEnd - rangeStart;
  if (rangeText.length > width) throw new Error('Seal: the file is too large for the byte range placeholder.');
  // Spaces before the closing bracket keep every later offset where the cross-reference section says.
  writeAscii(revision, rangeStart, `${rangeText.slice(0, -1)}${' '.repeat(width - rangeText.length)}]`);

  const digest = revisions.digest([start + hexStart, start + hexEnd]);
  const cms = await signedDataOf(digest, identity, signingTime, timestamp);
  if (cms.length > room) throw new Error(`Seal: the signature takes ${cms.length} bytes, more than the ${room} reserved.`);
  let hex = '';
  for (const byte of cms) hex += byte.toString(16).padStart(2, '0').toUpperCase();
  writeAscii(revision, hexStart + 1, hex);
}

/** Seals a whole PDF held in memory (a finished copy made before, a benchmark's): the sealed file, in one array. */
export async function sealPdf(pdfBytes: Uint8Array, identity: SealIdentity, signingTime: Date, timestamp?: Timestamper): Promise<Uint8Array> {
  const lib = await import('pdf-lib');
  const pdf = await lib.PDFDocument.load(pdfBytes, { updateMetadata: false });
  const revisions = new Revisions(lib, pdf, pdfBytes);
  await sealRevision(lib, pdf, revisions, identity, signingTime, timestamp);
  const appended = revisions.appended();
  const out = new Uint8Array(pdfBytes.length + appended.length);
  out.set(pdfBytes);
  out.set(appended, pdfBytes.length);
  return out;
}

/**
 * The signature dictionary with its placeholders, and its invisible widget on the first page,
 * listed in the page's annotations and the form's fields; SigFlags 3: the document has
 * signatures, and may only be appended to.
 */
function addSignatureField(lib: PdfLib, pdf: PDFDocument, room: number, signingTime: Date) {
  const { context } = pdf;
  const sig = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    ByteRange: [0, PLACEHOLDER, PLACEHOLDER, PLACEHOLDER],
    Contents: lib.PDFHexString.of('0'.repeat(room * 2)),
    M: lib.PDFString.fromDate(signingTime),
    Reason: lib.PDFHexString.fromText('Sealed on completion: the document and its certificate are unaltered since.'),
  });
  const sigRef = context.register(sig);
  const page = pdf.getPage(0);
  const widgetRef = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: lib.PDFHexString.fromText(`Seal ${sigRef.objectNumber}`),
      V: sigRef,
      // Print and Locked; an empty rectangle: the seal is shown by readers' signature panels, not on the page.
      F: 132,
      Rect: [0, 0, 0, 0],
      P: page.ref,
    }),
  );
  const listed = (holder: PDFDict, key: string) => {
    const entry = holder.get(lib.PDFName.of(key));
    const array = entry instanceof lib.PDFRef ? context.lookup(entry) : entry;
    if (array instanceof lib.PDFArray) array.push(widgetRef);
    else holder.set(lib.PDFName.of(key), context.obj([widgetRef]));
  };
  listed(page.node, 'Annots');
  const acroFormKey = lib.PDFName.of('AcroForm');
  let acroForm = pdf.catalog.lookupMaybe(acroFormKey, lib.PDFDict);
  if (!acroForm) {
    acroForm = context.obj({});
    pdf.catalog.set(acroFormKey, context.register(acroForm));
  }
  listed(acroForm, 'Fields');
  acroForm.set(lib.PDFName.of('SigFlags'), lib.PDFNumber.of(3));
}

function writeAscii(out: Uint8Array, at: number, text: string) {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
}

/**
 * A detached CMS SignedData over content of SHA-256 `contentDigest`, with the signed attributes a PAdES baseline signature
 * carries: content type, message digest and the signing certificate's SHA-256. Without a
 * time-stamp the signing time is the signer's own claim, carried as a signed attribute (and as /M);
 * with one (B-T), PAdES leaves that attribute out, and the time-stamp token over the signature
 * value is added as an unsigned attribute: it is made after the signature, over it.
 */
async function signedDataOf(contentDigest: Uint8Array, identity: SealIdentity, signingTime: Date, timestamp?: Timestamper): Promise<Uint8Array> {
  const certificates = identity.certificates.map((der) => Certificate.fromBER(der.slice().buffer));
  const signer = certificates[0]!;
  const certificateDigest = await crypto.subtle.digest('SHA-256', identity.certificates[0]! as BufferSource);
  const attributes = [
    new Attribute({ type: OID.contentType, values: [new ObjectIdentifier({ value: OID.data })] }),
    new Attribute({ type: OID.messageDigest, values: [new OctetString({ valueHex: contentDigest.slice().buffer })] }),
    signingCertificateV2(signer, certificateDigest),
  ];
  if (!timestamp) attributes.push(new Attribute({ type: OID.signingTime, values: [new UTCTime({ valueDate: signingTime })] }));

  const signerInfo = new SignerInfo({
    version: 1,
    sid: new IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
    signedAttrs: new SignedAndUnsignedAttributes({ type: 0, attributes: derOrdered(attributes) }),
  });
  const signedData = new SignedData({
    version: 1,
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [signerInfo],
    certificates,
  });
  await signedData.sign(identity.privateKey, 0, 'SHA-256');
  if (timestamp) {
    const token = await timestamp.stamp(signerInfo.signature.valueBlock.valueHexView);
    signerInfo.unsignedAttrs = new SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new Attribute({ type: OID.signatureTimeStampToken, values: [ContentInfo.fromBER(token).toSchema()] })],
    });
  }
  const contentInfo = new ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER(false));
}
