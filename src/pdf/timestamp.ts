/**
 * An RFC 3161 time-stamping client, for PAdES B-T: a time-stamping authority (TSA) signs the hash
 * of the seal's signature value together with its own clock's time, so the seal is proven to have
 * existed then, whatever the service's clock said, and stays checkable after the sealing
 * certificate expires or is revoked.
 *
 * Runs wherever `fetch` and WebCrypto do (workerd and Node). A TSA that refuses, answers something
 * else, or time-stamps other data is an error, never a seal without its time-stamp: the queue job
 * that seals fails and is retried.
 */
import { Integer, OctetString } from 'asn1js';
import { AlgorithmIdentifier, type ContentInfo, MessageImprint, SignedData, TimeStampReq, TimeStampResp, TSTInfo } from 'pkijs';
import { OID } from './cms-attributes.js';

export type Timestamper = {
  /** Who time-stamps, as the certificate page names it: the TSA's host. */
  authority: string;
  /** Time-stamps a signature value; answers the TimeStampToken (a CMS ContentInfo) in DER. */
  stamp(signatureValue: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
};

export type TimestampOptions = {
  /** How long to wait for the TSA's answer; 10 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

/**
 * A client of the TSA at `url` (http or https; `user:password@` in it is sent as HTTP Basic
 * authentication, as some TSAs ask). Messages name the TSA's host, never its credentials.
 */
export function timestampAuthority(url: string, options: TimestampOptions = {}): Timestamper {
  const endpoint = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' };
  if (endpoint.username || endpoint.password) {
    headers.authorization = `Basic ${btoa(`${decodeURIComponent(endpoint.username)}:${decodeURIComponent(endpoint.password)}`)}`;
    endpoint.username = '';
    endpoint.password = '';
  }
  const target = endpoint.toString();
  const fail = (why: string) => new Error(`The time-stamping authority at ${endpoint.host} ${why}.`);
  const send = options.fetch ?? fetch;

  const stamp = async (signatureValue: Uint8Array): Promise<Uint8Array<ArrayBuffer>> => {
    const imprint = new Uint8Array(await crypto.subtle.digest('SHA-256', signatureValue as BufferSource));
    const nonce = crypto.getRandomValues(new Uint8Array(12));
    nonce[0] = (nonce[0]! & 0x7f) | 0x01; // positive, and no leading zero byte for DER to strip
    const request = new TimeStampReq({
      version: 1,
      messageImprint: new MessageImprint({
        hashAlgorithm: new AlgorithmIdentifier({ algorithmId: OID.sha256 }),
        hashedMessage: new OctetString({ valueHex: imprint }),
      }),
      nonce: new Integer({ valueHex: nonce }),
      // The TSA's certificate inside the token, so the token can be checked from the PDF alone.
      certReq: true,
    });

    let answer: Response;
    try {
      answer = await send(target, {
        method: 'POST',
        headers,
        body: request.toSchema().toBER(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw fail(`could not be reached (${err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'network error'})`);
    }
    if (!answer.ok) throw fail(`answered HTTP ${answer.status}`);
    const body = await answer.arrayBuffer();

    let response: TimeStampResp;
    try {
      response = TimeStampResp.fromBER(body);
    } catch {
      throw fail('answered something that is not a time-stamp response');
    }
    // 0 granted, 1 granted with modifications; anything else is a refusal.
    if (response.status.status > 1 || !response.timeStampToken) {
      throw fail(
        `refused the request (status ${response.status.status}${response.status.statusStrings?.length ? `: ${response.status.statusStrings.map((s) => s.valueBlock.value).join('; ')}` : ''})`,
      );
    }
    const token = response.timeStampToken;
    const tstInfo = tokenInfo(token);
    if (!tstInfo) throw fail('answered a token that is not a signed TSTInfo');
    if (tstInfo.messageImprint.hashAlgorithm.algorithmId !== OID.sha256 || !sameBytes(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView, imprint)) {
      throw fail('time-stamped other data than the seal');
    }
    if (!tstInfo.nonce || !sameBytes(tstInfo.nonce.valueBlock.valueHexView, nonce)) throw fail('answered with another nonce (a replayed or mixed-up answer)');
    // pkijs checks the token's imprint against `data` as well as the TSA's signature over it.
    const signedData = new SignedData({ schema: token.content });
    const valid = await signedData.verify({ signer: 0, checkChain: false, data: signatureValue.slice().buffer }).catch(() => false);
    if (!valid) throw fail('answered a token whose signature does not verify');
    return new Uint8Array(token.toSchema().toBER(false));
  };
  return { authority: endpoint.host, stamp };
}

/** The TSTInfo inside a time-stamp token, or undefined when the token is not one. */
export function tokenInfo(token: ContentInfo): TSTInfo | undefined {
  try {
    if (token.contentType !== OID.signedData) return undefined;
    const signedData = new SignedData({ schema: token.content });
    const { eContentType, eContent } = signedData.encapContentInfo;
    if (eContentType !== OID.tstInfo || !eContent) return undefined;
    return TSTInfo.fromBER(eContent.getValue());
  } catch {
    return undefined;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
