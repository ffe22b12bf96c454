/**
 * Webhook signing secrets at rest: AES-256-GCM under a key from configuration, stored with the id
 * of the key that sealed them, so keys can be rotated (a new key seals, the old ones still open
 * what they sealed). The secret is needed in the clear at each delivery to sign it; the database
 * alone never reveals it. The subscription id is bound in as associated data, so a sealed secret
 * copied onto another subscription does not open.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type SecretKey = { id: string; key: Uint8Array };

/** Keys as configured: `id:base64key` separated by commas, the first one sealing. */
export function parseSecretKeys(text: string): SecretKey[] | string {
  const keys: SecretKey[] = [];
  for (const part of text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/]+={0,2})$/.exec(part);
    if (!match) return 'each key must be written id:base64 (an id of letters, digits, _ or -)';
    let key: Uint8Array;
    try {
      key = Uint8Array.from(atob(match[2]!), (char) => char.charCodeAt(0));
    } catch {
      return 'a key is not valid base64';
    }
    if (key.length !== 32) return 'each key must be 32 bytes (44 base64 characters)';
    if (keys.some((known) => known.id === match[1])) return 'key ids must differ';
    keys.push({ id: match[1]!, key });
  }
  return keys.length > 0 ? keys : 'at least one key is required';
}

const imported = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function aesKey(raw: Uint8Array): Promise<CryptoKey> {
  let key = imported.get(raw);
  if (!key) {
    key = crypto.subtle.importKey('raw', raw as BufferSource, 'AES-GCM', false, ['encrypt', 'decrypt']);
    imported.set(raw, key);
  }
  return key;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** Seals a secret with the current key: `base64(iv).base64(ciphertext)` and the key's id. */
export async function sealSecret(keys: SecretKey[], subscriptionId: string, secret: string): Promise<{ ciphertext: string; keyId: string }> {
  const current = keys[0]!;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(subscriptionId) },
    await aesKey(current.key),
    encoder.encode(secret),
  );
  return { ciphertext: `${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`, keyId: current.id };
}

/** Opens a sealed secret; throws when its key is not configured any more or it was tampered with. */
export async function openSecret(keys: SecretKey[], subscriptionId: string, sealed: { ciphertext: string; keyId: string }): Promise<string> {
  const key = keys.find((candidate) => candidate.id === sealed.keyId);
  if (!key) throw new Error(`The webhook secret key ${sealed.keyId} is not configured.`);
  const [iv, body] = sealed.ciphertext.split('.');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(iv ?? ''), additionalData: encoder.encode(subscriptionId) },
    await aesKey(key.key),
    fromBase64(body ?? ''),
  );
  return decoder.decode(plain);
}

/** A key derived from another secret, for the embedded and dev modes, which have no key configured. */
export async function derivedSecretKey(secret: string, id = 'local'): Promise<SecretKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('esign webhook secrets v1') },
    base,
    256,
  );
  return { id, key: new Uint8Array(bits) };
}

const derived = new WeakMap<Uint8Array, Promise<SecretKey[]>>();

/** The keys of a service: the configured ones, else one derived from its token secret (embedded, tests). */
export function secretKeysOf(config: { webhookSecretKeys?: SecretKey[]; tokenSecret: Uint8Array }): Promise<SecretKey[]> {
  if (config.webhookSecretKeys?.length) return Promise.resolve(config.webhookSecretKeys);
  let keys = derived.get(config.tokenSecret);
  if (!keys) {
    keys = derivedSecretKey(new TextDecoder().decode(config.tokenSecret)).then((key) => [key]);
    derived.set(config.tokenSecret, keys);
  }
  return keys;
}
