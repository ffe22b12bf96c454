/**
 * The hidden token of our pages' forms: an HMAC of what the form is bound to (a signing link, a
 * session) under a key derived from the token secret with a label of the form's own, so that it
 * passes for nothing else. A page of another site cannot make it; it is the second check beside
 * the Origin one, for the browsers that send no Origin.
 */
import { derivedHmacKey, hmacBase64url, timingSafeEqual } from './crypto.js';

export async function formMac(tokenSecret: Uint8Array, label: string, binding: string): Promise<string> {
  return hmacBase64url(await derivedHmacKey(tokenSecret, label), binding);
}

/** True when `presented` is the form token of `binding`. */
export async function verifyFormMac(tokenSecret: Uint8Array, label: string, binding: string, presented: unknown): Promise<boolean> {
  // A SHA-256 MAC is 43 characters of base64url; anything far longer is not worth hashing.
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 100) return false;
  return timingSafeEqual(await formMac(tokenSecret, label, binding), presented);
}
