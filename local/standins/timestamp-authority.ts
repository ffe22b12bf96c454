import { BitString, Integer, ObjectIdentifier, OctetString, Utf8String } from 'asn1js';
import {
  Accuracy,
  Attribute,
  Certificate,
  ContentInfo,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  PKIStatusInfo,
  SignedAndUnsignedAttributes,
  SignedData,
  SignerInfo,
  TimeStampReq,
  TimeStampResp,
  TSTInfo,
} from 'pkijs';
import { derOrdered, OID, signingCertificateV2 } from '../../src/pdf/cms-attributes.js';
import { createSelfSignedSeal, loadSealIdentity, type SealIdentity } from '../../src/pdf/seal-identity.js';
import type { Standin } from './standin.js';

/**
 * A small RFC 3161 time-stamping authority, for development and tests: it answers
 * `application/timestamp-query` POSTs with a time-stamp token signed by a self-signed certificate
 * made at start (ECDSA P-256, extended key usage time stamping, marked critical, as RFC 3161 asks
 * of a TSA's certificate). Its tokens check with `openssl ts -verify` against that certificate.
 * Never deployed; a deployment names a real TSA in TSA_URL.
 */
export interface TimestampAuthorityStandin extends Standin {
  /** The TSA's certificate (PEM): the trust anchor for checking its tokens. */
  certificatePem: string;
  /** The time-stamps issued so far. */
  issued(): number;
  /**
   * How it answers the next requests: `grant` (the default), `reject` (a well-formed refusal,
   * status 2), `unavailable` (HTTP 503), or `other-imprint` (a valid token over other data).
   */
  mode: 'grant' | 'reject' | 'unavailable' | 'other-imprint';
}

/** A policy arc for tokens of this stand-in; real TSAs name their own published policy. */
const LOCAL_POLICY = '1.3.6.1.4.1.55555.1.1';
const DIGEST_NAMES: Record<string, string> = { [OID.sha256]: 'SHA-256', '2.16.840.1.101.3.4.2.2': 'SHA-384', '2.16.840.1.101.3.4.2.3': 'SHA-512' };

export async function createTimestampAuthorityStandin(options: { now?: () => Date } = {}): Promise<TimestampAuthorityStandin> {
  const now = options.now ?? (() => new Date());
  const source = await createSelfSignedSeal('E-Signing API local time-stamping authority', now(), { keyType: 'ECDSA', extendedKeyUsage: [OID.timeStamping] });
  const identity = await loadSealIdentity(source, { key: 'TSA key', cert: 'TSA certificate' });
  let serial = 0;

  const standin: TimestampAuthorityStandin = {
    certificatePem: source.certPem,
    issued: () => serial,
    mode: 'grant',
    async fetch(request) {
      if (request.method !== 'POST') return new Response('POST a time-stamp query here.\n', { status: 405, headers: { allow: 'POST' } });
      if (standin.mode === 'unavailable') return new Response('unavailable\n', { status: 503 });
      if (!request.headers.get('content-type')?.startsWith('application/timestamp-query')) {
        return new Response('Content-Type must be application/timestamp-query.\n', { status: 415 });
      }
      let query: TimeStampReq;
      try {
        query = TimeStampReq.fromBER(await request.arrayBuffer());
      } catch {
        return reply(refusal('not a time-stamp request', 5)); // badDataFormat
      }
      const digest = DIGEST_NAMES[query.messageImprint.hashAlgorithm.algorithmId];
      if (!digest) return reply(refusal('unsupported hash algorithm', 0)); // badAlg
      if (standin.mode === 'reject') return reply(refusal('the authority refuses for now', 25)); // systemFailure
      if (standin.mode === 'other-imprint') {
        const other = new Uint8Array(await crypto.subtle.digest(digest, new TextEncoder().encode('something else')));
        query.messageImprint.hashedMessage = new OctetString({ valueHex: other });
      }
      serial += 1;
      return reply(new TimeStampResp({ status: new PKIStatusInfo({ status: 0 }), timeStampToken: await tokenFor(query, serial, now(), identity) }));
    },
    close: async () => {},
  };
  return standin;
}

/** The token: a SignedData over the TSTInfo, signed as RFC 3161 and RFC 5816 ask (ESSCertIDv2). */
async function tokenFor(query: TimeStampReq, serial: number, at: Date, identity: SealIdentity): Promise<ContentInfo> {
  const info = new TSTInfo({
    version: 1,
    policy: query.reqPolicy ?? LOCAL_POLICY,
    messageImprint: query.messageImprint,
    serialNumber: new Integer({ value: serial }),
    genTime: at,
    accuracy: new Accuracy({ seconds: 1 }),
    ...(query.nonce ? { nonce: query.nonce } : {}),
  });
  const infoDer = info.toSchema().toBER(false);
  const certificateDer = identity.certificates[0]! as Uint8Array<ArrayBuffer>;
  const certificate = Certificate.fromBER(certificateDer);
  const [infoDigest, certificateDigest] = await Promise.all([crypto.subtle.digest('SHA-256', infoDer), crypto.subtle.digest('SHA-256', certificateDer)]);
  const signedData = new SignedData({
    version: 3,
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OID.tstInfo, eContent: new OctetString({ valueHex: infoDer }) }),
    signerInfos: [
      new SignerInfo({
        version: 1,
        sid: new IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
        signedAttrs: new SignedAndUnsignedAttributes({
          type: 0,
          attributes: derOrdered([
            new Attribute({ type: OID.contentType, values: [new ObjectIdentifier({ value: OID.tstInfo })] }),
            new Attribute({ type: OID.messageDigest, values: [new OctetString({ valueHex: infoDigest })] }),
            signingCertificateV2(certificate, certificateDigest),
          ]),
        }),
      }),
    ],
    // certReq: the TSA's certificate travels in the token, so it can be checked on its own.
    ...(query.certReq ? { certificates: [certificate] } : {}),
  });
  await signedData.sign(identity.privateKey, 0, 'SHA-256');
  return new ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
}

function refusal(text: string, failBit: number): TimeStampResp {
  // PKIFailureInfo is a named BIT STRING with the one reason's bit set, and no trailing zero bits.
  const bytes = new Uint8Array(Math.floor(failBit / 8) + 1);
  bytes[bytes.length - 1] = 0x80 >> (failBit % 8);
  const failInfo = new BitString({ valueHex: bytes, unusedBits: 7 - (failBit % 8) });
  return new TimeStampResp({ status: new PKIStatusInfo({ status: 2, statusStrings: [new Utf8String({ value: text })], failInfo }) });
}

function reply(response: TimeStampResp): Response {
  return new Response(response.toSchema().toBER(false), { headers: { 'content-type': 'application/timestamp-reply' } });
}
