/**
 * The hidden `form_token` of the signing page's forms: an HMAC of the signing token under a key
 * derived from the token secret with a label of its own, so it can pass neither for a signing
 * link nor for an access token. A post must bring the one its page was given; a page of another
 * site cannot make it without the link, and with the link it could sign anyway. It is the second
 * check beside the Origin one, for the browsers that send no Origin.
 */
import { timingSafeEqual } from '../lib/crypto.js';

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const hmacKey = (raw: Uint8Array) =>
  crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

// Derived once per secret, as the link key is: every page view and every post needs it.
const formKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function formKey(tokenSecret: Uint8Array): Promise<CryptoKey> {
  let key = formKeys.get(tokenSecret);
  if (!key) {
    key = hmacKey(tokenSecret)
      .then((secretKey) => crypto.subtle.sign('HMAC', secretKey, encoder.encode('esign signing page form v1')))
      .then((raw) => hmacKey(new Uint8Array(raw)));
    formKeys.set(tokenSecret, key);
  }
  return key;
}

export async function formToken(tokenSecret: Uint8Array, signingToken: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await formKey(tokenSecret), encoder.encode(signingToken));
  return base64url(new Uint8Array(mac));
}

/** True when `presented` is the form token of this signing token. */
export async function verifyFormToken(tokenSecret: Uint8Array, signingToken: string, presented: unknown): Promise<boolean> {
  // A SHA-256 MAC is 43 characters of base64url; anything far longer is not worth hashing.
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 100) return false;
  return timingSafeEqual(await formToken(tokenSecret, signingToken), presented);
}
