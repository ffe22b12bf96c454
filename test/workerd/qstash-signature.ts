import { base64url, SignJWT } from 'jose';

export type SignatureOptions = {
  /** The claim `sub`: QStash signs the exact destination URL. Defaults to `url`. */
  subject?: string;
  /** Seconds from now; QStash's tokens live five minutes. */
  expiresIn?: number;
  /** Sign the hash of this instead of the body that is sent. */
  signedBody?: string;
  issuer?: string;
};

/**
 * An `Upstash-Signature` as QStash makes one for a delivery: an HS256 JWT under the signing key,
 * with `iss: "Upstash"`, `sub` the destination URL, `exp`/`nbf`/`iat`, a `jti`, and
 * `body` = base64url(SHA-256(raw body)).
 */
export async function qstashSignature(signingKey: string, url: string, body: string, options: SignatureOptions = {}): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(options.signedBody ?? body));
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ body: base64url.encode(new Uint8Array(digest)) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(options.issuer ?? 'Upstash')
    .setSubject(options.subject ?? url)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + (options.expiresIn ?? 300))
    .setJti(`jwt_${crypto.randomUUID()}`)
    .sign(new TextEncoder().encode(signingKey));
}

/** A QStash delivery to `url`: POST with the body and, unless told otherwise, a valid signature. */
export function qstashDelivery(url: string, body: string, signature: string | undefined): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'upstash-message-id': `msg_${crypto.randomUUID()}`, 'upstash-retried': '0' };
  if (signature !== undefined) headers['upstash-signature'] = signature;
  return new Request(url, { method: 'POST', headers, body });
}
