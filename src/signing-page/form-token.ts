/**
 * The hidden `form_token` of the signing page's forms: an HMAC of the signing token under a key
 * derived from the token secret with a label of its own, so it can pass neither for a signing
 * link nor for an access token. A post must bring the one its page was given; a page of another
 * site cannot make it without the link, and with the link it could sign anyway. It is the second
 * check beside the Origin one, for the browsers that send no Origin.
 */
import { derivedHmacKey, hmacBase64url, timingSafeEqual } from '../lib/crypto.js';

export async function formToken(tokenSecret: Uint8Array, signingToken: string): Promise<string> {
  return hmacBase64url(await derivedHmacKey(tokenSecret, 'esign signing page form v1'), signingToken);
}

/** True when `presented` is the form token of this signing token. */
export async function verifyFormToken(tokenSecret: Uint8Array, signingToken: string, presented: unknown): Promise<boolean> {
  // A SHA-256 MAC is 43 characters of base64url; anything far longer is not worth hashing.
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 100) return false;
  return timingSafeEqual(await formToken(tokenSecret, signingToken), presented);
}
