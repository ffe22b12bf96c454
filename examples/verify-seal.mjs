// Checks the seal of a finished PDF in code, as an integrator's back end may do on receiving
// `envelope.document_ready`: the file's SHA-256 is the one announced, the seal's signature covers
// every byte of the file but itself and verifies, it was made by the certificate you expect, and
// (PAdES B-T) its time-stamp vouches for that very signature.
//
//   npm install pkijs            # the only dependency; Node 20 or later
//   node verify-seal.mjs signed.pdf [expected-sha256] [expected-certificate-sha256]
//
// Exits 0 when every check holds, 1 otherwise, printing what it found.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as pkijs from 'pkijs';

const [file, expectedSha256, expectedCertificate] = process.argv.slice(2);
if (!file) {
  console.error('usage: node verify-seal.mjs signed.pdf [expected-sha256] [expected-certificate-sha256]');
  process.exit(2);
}
const bytes = readFileSync(file);
const problems = [];
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

// 1. The whole file is the one announced (X-Document-SHA256, or data.document.sha256 of the event).
const fileSha256 = sha256(bytes);
console.log(`file SHA-256:        ${fileSha256}`);
if (expectedSha256 && expectedSha256.toLowerCase() !== fileSha256) problems.push('the file is not the one announced');

// 2. The seal is the file's last signature; its byte range must be the whole file but the signature.
const text = bytes.toString('latin1');
const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text.slice(text.lastIndexOf('/ByteRange')));
if (!range) {
  console.log('no seal found');
  process.exit(1);
}
const [a, b, c, d] = range.slice(1).map(Number);
const wholeFile = a === 0 && c + d === bytes.length && text[b] === '<' && text[c - 1] === '>';
console.log(`covers:              ${wholeFile ? 'the whole file but the signature' : 'NOT the whole file'}`);
if (!wholeFile) problems.push('the seal does not cover the whole file (something was added after it)');

// 3. The CMS signature verifies over those bytes.
const cms = Buffer.from(text.slice(b + 1, c - 1).replace(/(00)+$/, ''), 'hex');
const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(cms).content });
const signed = Buffer.concat([bytes.subarray(a, b), bytes.subarray(c, c + d)]);
const result = await signedData
  .verify({ signer: 0, data: signed, checkChain: false, extendedMode: true })
  .catch((error) => ({ signatureVerified: false, message: error.message }));
console.log(`signature:           ${result.signatureVerified ? 'valid' : `INVALID (${result.message ?? 'does not verify'})`}`);
if (!result.signatureVerified) problems.push('the signature does not verify: the file was changed after sealing');

// 4. Made by the sealing certificate you expect (its SHA-256 is printed on the certificate page).
const certificate = signedData.certificates?.[0];
if (certificate) {
  const subject = certificate.subject.typesAndValues.map((entry) => String(entry.value.valueBlock.value)).join(', ');
  const fingerprint = sha256(Buffer.from(certificate.toSchema().toBER(false)));
  console.log(`sealed by:           ${subject} (certificate SHA-256 ${fingerprint})`);
  if (expectedCertificate && expectedCertificate.replace(/:/g, '').toLowerCase() !== fingerprint) problems.push('the seal was made by another certificate');
}

// 5. PAdES B-T: an RFC 3161 time-stamp token over the signature value, signed by its authority.
const signer = signedData.signerInfos[0];
const tokenAttribute = signer.unsignedAttrs?.attributes.find((attribute) => attribute.type === '1.2.840.113549.1.9.16.2.14');
if (tokenAttribute) {
  const token = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: tokenAttribute.values[0] }).content });
  const info = pkijs.TSTInfo.fromBER(token.encapContentInfo.eContent.getValue());
  const signatureValue = signer.signature.valueBlock.valueHexView.slice();
  const stamped = await token.verify({ signer: 0, data: signatureValue.buffer, checkChain: false }).catch(() => false);
  console.log(`time-stamp:          ${info.genTime.toISOString()} ${stamped ? '(valid, over this signature)' : '(INVALID)'}`);
  if (!stamped) problems.push('the time-stamp does not vouch for this signature');
} else {
  console.log('time-stamp:          none (PAdES B-B: the time is the service’s own claim)');
}

if (problems.length) {
  console.log(`\nNOT OK: ${problems.join('; ')}`);
  process.exit(1);
}
console.log('\nOK');
