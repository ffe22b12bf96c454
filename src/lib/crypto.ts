/** Small WebCrypto helpers that run the same on Node and in workerd. */

const encoder = new TextEncoder();

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  const data = typeof input === 'string' ? encoder.encode(input) : input;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data as BufferSource)));
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes are drawn from the CSPRNG a pool at a time: a send takes a dozen ids, and each call
 * to getRandomValues costs far more than the bytes it gives. The pool
 * is filled lazily, as Workers refuse random values at a module's top level; a byte is never used twice.
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let poolAt = 0;

function randomByte(): number {
  if (poolAt === pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** `length` characters of base62 drawn without bias from the platform's CSPRNG. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 4 * 62: dropping bytes above it keeps every character equally likely.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** Compares two strings in time that does not depend on where they first differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const hmacKey = (raw: Uint8Array) => crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

const derivedKeys = new Map<string, WeakMap<Uint8Array, Promise<CryptoKey>>>();

/**
 * An HMAC key derived from a secret for one purpose (`label`), so that a MAC made for one purpose
 * (a signing link, a form token) can never pass for another. Derived once per secret and label.
 */
export function derivedHmacKey(secret: Uint8Array, label: string): Promise<CryptoKey> {
  let byLabel = derivedKeys.get(label);
  if (!byLabel) derivedKeys.set(label, (byLabel = new WeakMap()));
  let key = byLabel.get(secret);
  if (!key) {
    key = hmacKey(secret)
      .then((secretKey) => crypto.subtle.sign('HMAC', secretKey, new TextEncoder().encode(label)))
      .then((raw) => hmacKey(new Uint8Array(raw)));
    byLabel.set(secret, key);
  }
  return key;
}

/** base64url of HMAC-SHA256(key, text). */
export async function hmacBase64url(key: CryptoKey, text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text))));
}
