/**
 * What the seal's CMS signature and a time-stamp token share: the object identifiers and the
 * signed attributes that bind a signature to its certificate.
 */
import { OctetString, Sequence } from 'asn1js';
import { Attribute, type Certificate, GeneralName, GeneralNames, IssuerSerial } from 'pkijs';

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  /** RFC 3161: the content type of a time-stamp token's TSTInfo. */
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  /** RFC 3161 appendix A: an unsigned attribute holding a time-stamp token over the signature value. */
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  /** Extended key usage: time stamping. */
  timeStamping: '1.3.6.1.5.5.7.3.8',
};

/**
 * The signing-certificate-v2 attribute (RFC 5035): the SHA-256 of the certificate that made the
 * signature, with its issuer and serial, so a signature cannot be passed off as made with another
 * certificate of the same key. The hash algorithm is left out: SHA-256 is the default there.
 */
export function signingCertificateV2(certificate: Certificate, certificateSha256: ArrayBuffer): Attribute {
  const issuerSerial = new IssuerSerial({
    issuer: new GeneralNames({ names: [new GeneralName({ type: 4, value: certificate.issuer })] }),
    serialNumber: certificate.serialNumber,
  });
  const essCertIdV2 = new Sequence({ value: [new OctetString({ valueHex: certificateSha256 }), issuerSerial.toSchema()] });
  return new Attribute({ type: OID.signingCertificateV2, values: [new Sequence({ value: [new Sequence({ value: [essCertIdV2] })] })] });
}

/** DER orders a SET OF by the members' encodings; verifiers that re-encode would otherwise differ. */
export function derOrdered(attributes: Attribute[]): Attribute[] {
  const encoded = attributes.map((attribute) => ({ attribute, der: new Uint8Array(attribute.toSchema().toBER()) }));
  encoded.sort((a, b) => compareBytes(a.der, b.der));
  return encoded.map(({ attribute }) => attribute);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
