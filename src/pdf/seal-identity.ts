/**
 * The identity that seals every finished PDF: a private key (PKCS#8 PEM) and its certificate,
 * optionally followed by the certificates that issued it (PEM, the sealing one first).
 *
 * Two checks at two times. `sealPemProblems` is synchronous and cheap (PEM labels and base64), so
 * the Worker can run it in its global scope when it starts without loading the ASN.1 code; whether
 * the key belongs to the certificate needs WebCrypto, which is asynchronous, so `loadSealIdentity`
 * checks that the first time a document is sealed (and the embedded server at its start).
 * Messages name what is wrong, never the PEM text: the key is a secret.
 */
import { BitString, Integer, ObjectIdentifier, Sequence, Utf8String } from 'asn1js';
import { AttributeTypeAndValue, Certificate, Extension, PrivateKeyInfo } from 'pkijs';
import { sha256Hex } from '../lib/crypto.js';
import { pemBlocks, type SealSource, sealPemProblems } from './seal-pem.js';
import type { Timestamper } from './timestamp.js';

export { type SealSource, sealPemProblems };

export type SealIdentity = {
  privateKey: CryptoKey;
  /** DER of the sealing certificate, then the rest of the chain as given. */
  certificates: Uint8Array[];
  /** The sealing certificate's subject, e.g. `CN=E-Signing API document seal, O=Acme Ltd`. */
  subject: string;
  /** Hex SHA-256 of the sealing certificate's DER, upper case, in pairs: how people compare certificates. */
  fingerprint: string;
};

const RSA = '1.2.840.113549.1.1.1';
const EC = '1.2.840.10045.2.1';
const P256 = '1.2.840.10045.3.1.7';

/** The WebCrypto parameters of a key: RSA signs PKCS#1 v1.5 with SHA-256, EC keys only on P-256. */
export function signingAlgorithm(keyOid: string, curveOid: string | undefined): RsaHashedImportParams | EcKeyImportParams | undefined {
  if (keyOid === RSA) return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  if (keyOid === EC && curveOid === P256) return { name: 'ECDSA', namedCurve: 'P-256' };
  return undefined;
}

/**
 * A sealing certificate whose serial number is not in DER's shortest form (a redundant leading
 * byte): openssl and NSS (pdfsig, Firefox) refuse to read it, so every seal made with it fails
 * their checks. One local seal in 256 made before this was checked had one.
 */
export class UnreadableSealCertificate extends Error {}

function serialIsMinimal(certificate: Certificate): boolean {
  const bytes = certificate.serialNumber.valueBlock.valueHexView;
  if (bytes.length < 2) return true;
  return !((bytes[0] === 0x00 && bytes[1]! < 0x80) || (bytes[0] === 0xff && bytes[1]! >= 0x80));
}

const signParams = (algorithm: { name: string }): AlgorithmIdentifier | EcdsaParams =>
  algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : algorithm;

/**
 * Reads the key and the chain, and refuses a key that is not the sealing certificate's: a seal
 * made with it would fail every check, on every document, without anyone noticing here.
 */
export async function loadSealIdentity(source: SealSource, names?: { key: string; cert: string }): Promise<SealIdentity> {
  const problems = sealPemProblems(source.keyPem, source.certPem, names);
  if (problems.length > 0) throw new Error(`The sealing identity is unusable: ${problems.join('; ')}.`);
  const keyName = names?.key ?? 'SEAL_KEY_PEM';
  const certName = names?.cert ?? 'SEAL_CERT_PEM';
  const keyDer = pemBlocks(source.keyPem)![0]!.der;
  const certificates = pemBlocks(source.certPem)!.map((block) => block.der);

  let keyInfo: PrivateKeyInfo;
  let certificate: Certificate;
  try {
    keyInfo = PrivateKeyInfo.fromBER(keyDer.buffer);
  } catch {
    throw new Error(`The sealing identity is unusable: ${keyName} is not a PKCS#8 private key.`);
  }
  try {
    certificate = Certificate.fromBER(certificates[0]!.buffer);
    for (const der of certificates.slice(1)) Certificate.fromBER(der.buffer);
  } catch {
    throw new Error(`The sealing identity is unusable: ${certName} holds something that is not an X.509 certificate.`);
  }
  if (!serialIsMinimal(certificate)) {
    throw new UnreadableSealCertificate(
      `The sealing identity is unusable: the first certificate in ${certName} encodes its serial number with a leading byte DER forbids, so verifiers such as openssl and pdfsig cannot read it.`,
    );
  }
  const params = keyInfo.privateKeyAlgorithm.algorithmParams;
  const curve = params instanceof ObjectIdentifier ? params.valueBlock.toString() : undefined;
  const algorithm = signingAlgorithm(keyInfo.privateKeyAlgorithm.algorithmId, curve);
  if (!algorithm) throw new Error(`The sealing identity is unusable: ${keyName} must be an RSA or an ECDSA P-256 key.`);

  let privateKey: CryptoKey;
  let publicKey: CryptoKey;
  try {
    privateKey = await crypto.subtle.importKey('pkcs8', keyDer, algorithm, false, ['sign']);
  } catch {
    throw new Error(`The sealing identity is unusable: ${keyName} cannot be imported as a signing key.`);
  }
  try {
    publicKey = await crypto.subtle.importKey('spki', certificate.subjectPublicKeyInfo.toSchema().toBER(), algorithm, false, ['verify']);
  } catch {
    throw new Error(`The sealing identity is unusable: the key of the certificate in ${certName} is not of the same kind as ${keyName}.`);
  }
  const probe = new TextEncoder().encode('seal identity check');
  const signature = await crypto.subtle.sign(signParams(algorithm), privateKey, probe);
  if (!(await crypto.subtle.verify(signParams(algorithm), publicKey, signature, probe))) {
    throw new Error(`The sealing identity is unusable: ${keyName} is not the key of the first certificate in ${certName}.`);
  }
  const hex = (await sha256Hex(certificates[0]!)).toUpperCase();
  return { privateKey, certificates, subject: nameOf(certificate.subject), fingerprint: hex.match(/../g)!.join(':') };
}

const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'E',
};

function nameOf(name: { typesAndValues: { type: string; value: { valueBlock: { value?: unknown } } }[] }): string {
  return name.typesAndValues.map((entry) => `${SHORT_NAMES[entry.type] ?? entry.type}=${String(entry.value.valueBlock.value ?? '')}`).join(', ');
}

/** The lines the certificate page prints under "Sealed by". */
export function sealedByLines(identity: SealIdentity, timestamp?: Pick<Timestamper, 'authority'>): string[] {
  const lines = [`Certificate subject: ${identity.subject}`, `Certificate SHA-256: ${identity.fingerprint}`];
  if (timestamp) lines.push(`Time-stamped (RFC 3161) by: ${timestamp.authority}`);
  return lines;
}

/** A load per source object: the key import and the match check happen once per isolate or process. */
const loaded = new WeakMap<SealSource, Promise<SealIdentity>>();

export function sealIdentityOf(source: SealSource): Promise<SealIdentity> {
  let identity = loaded.get(source);
  if (!identity) {
    // A failed load is not kept, so a queue retry after the configuration is fixed tries again.
    identity = loadSealIdentity(source).catch((err: unknown) => {
      loaded.delete(source);
      throw err;
    });
    loaded.set(source, identity);
  }
  return identity;
}

const pem = (label: string, der: ArrayBuffer) => {
  const base64 = btoa(String.fromCharCode(...new Uint8Array(der)));
  return `-----BEGIN ${label}-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;
};

/**
 * A new RSA key and a self-signed certificate for it, for the embedded server: its seals check as
 * intact and unchanged, but name no one anybody trusts, so a deployment is given a real one.
 * `extendedKeyUsage` (OIDs, marked critical) narrows what the certificate is for, as a
 * time-stamping authority's must be.
 */
export async function createSelfSignedSeal(
  commonName: string,
  now: Date,
  options: { keyType?: 'RSA' | 'ECDSA'; years?: number; extendedKeyUsage?: string[] } = {},
): Promise<SealSource> {
  const years = options.years ?? 10;
  // RSA by default: its signatures are deterministic, so a finished copy made again hashes the same.
  const algorithm: RsaHashedKeyGenParams | EcKeyGenParams =
    options.keyType === 'ECDSA'
      ? { name: 'ECDSA', namedCurve: 'P-256' }
      : { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  const keys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = new Certificate();
  certificate.version = 2;
  // 126 random bits. The first byte is kept within 0x40–0x7f: a set top bit would make the number
  // negative, and a zero byte would be one DER forbids (its integers are minimal), which NSS, and so
  // pdfsig and Firefox, refuses to read: one certificate in 256 would seal PDFs that fail to check.
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = 0x40 | (serial[0]! & 0x3f);
  certificate.serialNumber = new Integer({ valueHex: serial });
  const name = [new AttributeTypeAndValue({ type: '2.5.4.3', value: new Utf8String({ value: commonName }) })];
  certificate.subject.typesAndValues.push(...name);
  certificate.issuer.typesAndValues.push(...name);
  certificate.notBefore.value = now;
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  certificate.notAfter.value = notAfter;
  // digitalSignature and nonRepudiation (contentCommitment): what a document seal is for.
  const keyUsage = new BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 });
  certificate.extensions = [new Extension({ extnID: '2.5.29.15', critical: true, extnValue: keyUsage.toBER(false) })];
  if (options.extendedKeyUsage?.length) {
    const usages = new Sequence({ value: options.extendedKeyUsage.map((oid) => new ObjectIdentifier({ value: oid })) });
    certificate.extensions.push(new Extension({ extnID: '2.5.29.37', critical: true, extnValue: usages.toBER(false) }));
  }
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey);
  await certificate.sign(keys.privateKey, 'SHA-256');
  return {
    keyPem: pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certPem: pem('CERTIFICATE', certificate.toSchema().toBER(false)),
  };
}
