/**
 * The proof a browser holds once its signer entered the right code: `{nonce}.{expires}.{mac}`, a
 * MAC over the recipient, a random nonce and an expiry, under a key derived from the token secret
 * for this purpose alone. Each verification makes a new one, held only by the browser that
 * verified (in a cookie, and in the page's own addresses for a page in a frame whose cookies the
 * browser withholds); another browser with the same link has none and must verify again.
 */
import { base64url, derivedHmacKey, hmacBase64url, timingSafeEqual } from '../../lib/crypto.js';

/** How long a browser stays verified: a working day; after that a new code is asked for. */
export const PROOF_LIFETIME_MS = 24 * 3600 * 1000;

const proofKey = (tokenSecret: Uint8Array) => derivedHmacKey(tokenSecret, 'esign signer verified v1');

export async function makeProof(tokenSecret: Uint8Array, recipientId: string, now: Date): Promise<string> {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const expires = Math.floor((now.getTime() + PROOF_LIFETIME_MS) / 1000);
  return `${nonce}.${expires}.${await hmacBase64url(await proofKey(tokenSecret), `${recipientId}.${nonce}.${expires}`)}`;
}

/** A proof's shape, checked before any MAC is made: what the page and cookie carry, nothing longer. */
export const isProofShaped = (proof: unknown): proof is string => typeof proof === 'string' && /^[A-Za-z0-9_-]{22}\.\d{1,12}\.[A-Za-z0-9_-]{43}$/.test(proof);

/** True when `proof` was made for this recipient and has not expired. */
export async function verifyProof(tokenSecret: Uint8Array, recipientId: string, proof: string | null | undefined, now: Date): Promise<boolean> {
  if (!isProofShaped(proof)) return false;
  const [nonce, expires, mac] = proof.split('.') as [string, string, string];
  if (Number(expires) * 1000 <= now.getTime()) return false;
  return timingSafeEqual(await hmacBase64url(await proofKey(tokenSecret), `${recipientId}.${nonce}.${expires}`), mac);
}
