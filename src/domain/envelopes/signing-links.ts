/**
 * Signing links are bearer credentials: `{BASE_URL}/sign/{recipient_id}.{mac}`, where the MAC is an
 * HMAC-SHA256 over the envelope and recipient ids under a key derived from the token secret. They
 * are unguessable and bound to one recipient of one envelope, and, being derived, are never stored:
 * the same link can be given again at any time, and a voided or expired envelope's links die with
 * its status, which the signing page checks. Rotating TOKEN_SECRET invalidates every link.
 */
import type { RoleType } from '../../data/schema.js';
import { derivedHmacKey, hmacBase64url, timingSafeEqual } from '../../lib/crypto.js';
import { isRecipientId } from '../../lib/ids.js';

/** The link key, derived from the token secret so that neither kind of credential can pass for the other. */
const linkKey = (tokenSecret: Uint8Array) => derivedHmacKey(tokenSecret, 'esign signing links v1');

export async function signingToken(tokenSecret: Uint8Array, envelopeId: string, recipientId: string): Promise<string> {
  return `${recipientId}.${await hmacBase64url(await linkKey(tokenSecret), `${envelopeId}:${recipientId}`)}`;
}

export const signingUrl = (baseUrl: string, token: string) => `${baseUrl}/sign/${token}`;

/** The recipient id a token names, if its MAC is right for that recipient's envelope. */
export async function verifySigningToken(tokenSecret: Uint8Array, token: string, envelopeOf: (recipientId: string) => Promise<string | null>) {
  const [recipientId, mac] = token.split('.');
  if (!recipientId || !mac || !isRecipientId(recipientId)) return null;
  const envelopeId = await envelopeOf(recipientId);
  if (!envelopeId) return null;
  const expected = await signingToken(tokenSecret, envelopeId, recipientId);
  return timingSafeEqual(expected, token) ? { recipientId, envelopeId } : null;
}

export type SigningLinkEntry = {
  recipient_id: string;
  name: string;
  email: string;
  recipient_type: 'need-to-sign' | 'receives-copy';
  signing_url: string | null;
};

type LinkRecipient = { id: string; name: string; email: string; type: RoleType };

/**
 * The entries of docs/api-reference.md, section 2.2, for every recipient of an envelope, in signing order. `live` is false
 * for an envelope that can no longer be signed (voided, expired, finished): no link is given then.
 */
export async function signingLinkEntries(
  config: { tokenSecret: Uint8Array; baseUrl: string },
  envelopeId: string,
  recipients: LinkRecipient[],
  live = true,
): Promise<SigningLinkEntry[]> {
  return Promise.all(
    recipients.map(async (recipient) => ({
      recipient_id: recipient.id,
      name: recipient.name,
      email: recipient.email,
      recipient_type: recipient.type === 'signer' ? ('need-to-sign' as const) : ('receives-copy' as const),
      signing_url: recipient.type === 'signer' && live ? signingUrl(config.baseUrl, await signingToken(config.tokenSecret, envelopeId, recipient.id)) : null,
    })),
  );
}
