/**
 * The seal made inside workerd by the PDF Worker, as deployed (its bundle, its own SEAL_KEY_PEM,
 * SEAL_CERT_PEM and TSA_URL), asked through the Worker's `PDF` service binding as the finishing job
 * asks it: pkijs and WebCrypto in the runtime. pdfsig cannot run here, so the CMS is verified with
 * pkijs over the byte range, and the range is checked to cover the whole file; the Node suite
 * (test/unit/seal-pdf.test.ts) has poppler check the same code.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { boundPdfMaker } from '../../src/adapters/production/bound-pdf-maker.js';
import { R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { documentsBucket } from '../../src/entries/documents-binding.js';
import { readWholeDocument } from '../../src/lib/whole-document.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { OID } from '../../src/pdf/cms-attributes.js';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { createSelfSignedSeal, loadSealIdentity } from '../../src/pdf/seal-identity.js';
import { pemBlocks } from '../../src/pdf/seal-pem.js';
import { tokenInfo } from '../../src/pdf/timestamp.js';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from '../support/seal-fixture.js';

const workerdFonts = assetFontSource(env.FONTS as AssetFetcher);

const latin1 = (bytes: Uint8Array) => {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
};
const at = new Date('2026-11-04T08:00:00.000Z');

const pdfWorker = boundPdfMaker(env.PDF);
/** The bucket the PDF Worker shares: the original goes in by key, the finished PDF comes out by key. */
const documents = new R2DocumentStore(documentsBucket(env, 'The suite'));
const put = async (bytes: Uint8Array) => (await documents.put(bytes, { maxBytes: bytes.byteLength })).key;

/** The PDF Worker's finished PDF: sealed with its identity, time-stamped at its authority (B-T). */
async function sealed(pages: number) {
  const original = await generateDocument('Workerd seal', pages, workerdFonts);
  const finished = await pdfWorker.finish({
    originalKey: await put(original),
    envelopeId: 'env_workerd_seal',
    title: 'Workerd seal',
    senderEmail: 'sender@example.test',
    senderName: 'Acme Ltd',
    fields: [{ type: 'signature', page: 1, x: 72, y: 300, width: 220, height: 40, value: 'Ann Signer' }],
    recipients: [
      { name: 'Ann Signer', email: 'ann@example.test', role: 'Tenant', kind: 'signer', events: [{ what: 'Signed', at, ip: null, userAgent: null }] },
    ],
    consentVersion: 'esign-consent-2026-11',
    consentText: 'I agree.',
    originalSha256: await sha256Hex(original),
    completedAt: at,
  });
  return { ...finished, bytes: (await readWholeDocument(documents, finished.key))! };
}

/** Whether the CMS in /Contents verifies over the byte range, and whether that range is the whole file but the hole. */
async function check(bytes: Uint8Array) {
  const pkijs = await import('pkijs');
  const text = latin1(bytes);
  const range = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+) *\]/
    .exec(text.slice(text.lastIndexOf('/ByteRange')))!
    .slice(1)
    .map(Number);
  const [a, b, c, d] = range as [number, number, number, number];
  // The zeros that pad the hole stay: the DER may end in a zero byte, and the decoder stops after one element.
  const hex = text.slice(b + 1, c - 1);
  const der = Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
  const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(der).content });
  const data = new Uint8Array(b + d);
  data.set(bytes.subarray(a, b));
  data.set(bytes.subarray(c, c + d), b);
  // pkijs throws on a digest that does not match: that is a failed verification too.
  const valid = await signedData.verify({ signer: 0, data: data.buffer, checkChain: false }).catch(() => false);
  return { valid, wholeFile: a === 0 && c + d === bytes.length && text[b] === '<' && text[c - 1] === '>', signedData };
}

describe('the seal in workerd, made by the PDF Worker', () => {
  it('seals the finished PDF with its identity, over the whole file', async () => {
    const finished = await sealed(3);
    expect(await check(finished.bytes)).toMatchObject({ valid: true, wholeFile: true });
    expect(finished.sha256).toBe(await sha256Hex(finished.bytes));
    expect(latin1(finished.bytes)).toContain('/SubFilter /ETSI.CAdES.detached');
    const certificate = new (await import('pkijs')).Certificate({ schema: (await check(finished.bytes)).signedData.certificates![0]!.toSchema() });
    expect(Array.from(new Uint8Array(certificate.toSchema().toBER(false)))).toEqual(Array.from(pemBlocks(TEST_SEAL_CERT_PEM)![0]!.der));
  });

  it('time-stamps the seal at its authority (B-T), over its signature value', async () => {
    const pkijs = await import('pkijs');
    const finished = await sealed(2);
    const { valid, wholeFile, signedData } = await check(finished.bytes);
    expect({ valid, wholeFile }).toEqual({ valid: true, wholeFile: true });
    const signer = signedData.signerInfos[0]!;
    expect(signer.signedAttrs!.attributes.map((attribute) => attribute.type)).not.toContain(OID.signingTime);
    const tokenSchema = signer.unsignedAttrs!.attributes.find((attribute) => attribute.type === OID.signatureTimeStampToken)!.values[0]!;
    const token = new pkijs.ContentInfo({ schema: tokenSchema });
    const signatureValue = signer.signature.valueBlock.valueHexView.slice();
    const imprint = tokenInfo(token)!.messageImprint.hashedMessage.valueBlock.valueHexView;
    expect(Array.from(imprint)).toEqual(Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', signatureValue))));
    const tokenData = new pkijs.SignedData({ schema: token.content });
    expect(await tokenData.verify({ signer: 0, checkChain: false, data: signatureValue.buffer })).toBe(true);
    // The token carries the authority's own certificate: the one the stand-in was started with.
    const authority = pemBlocks(inject('workerdStack').timestampAuthority.certificatePem)![0]!.der;
    expect(Array.from(new Uint8Array((tokenData.certificates![0] as InstanceType<typeof pkijs.Certificate>).toSchema().toBER(false)))).toEqual(
      Array.from(authority),
    );
  });

  it('fails to verify once one signed byte changes', async () => {
    const finished = await sealed(1);
    const changed = finished.bytes.slice();
    changed[12] = changed[12]! ^ 0x01;
    expect((await check(changed)).valid).toBe(false);
  });

  it('reads a template’s pages through the binding, and answers null for bytes that are not a PDF', async () => {
    expect(await pdfWorker.pageSizes(await put(await generateDocument('Pages', 2, workerdFonts)))).toEqual([
      { width: 612, height: 792 },
      { width: 612, height: 792 },
    ]);
    expect(await pdfWorker.pageSizes(await put(new TextEncoder().encode('%PDF-1.7 not really')))).toBeNull();
  });

  it('makes a self-signed identity and refuses a key that is not the certificate’s', async () => {
    const made = await createSelfSignedSeal('Workerd seal', at);
    await expect(loadSealIdentity(made)).resolves.toMatchObject({ subject: 'CN=Workerd seal' });
    await expect(loadSealIdentity({ keyPem: TEST_SEAL_KEY_PEM, certPem: made.certPem })).rejects.toThrow(
      /SEAL_KEY_PEM is not the key of the first certificate in SEAL_CERT_PEM/,
    );
  });
});
