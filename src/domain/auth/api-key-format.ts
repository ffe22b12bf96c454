import { randomBase62, sha256Hex } from '../../lib/crypto.js';

/**
 * An API key is `esk_<environment>_<secret>`: the fixed `esk_` prefix makes it recognizable to
 * people and secret scanners. Only its SHA-256 is stored; the key has 190 bits of entropy, so a
 * fast hash is enough and lets the token exchange find it by an index lookup.
 */
export const API_KEY_PREFIX = 'esk_';

export function generateApiKey(environment: 'live' | 'test'): string {
  return `${API_KEY_PREFIX}${environment}_${randomBase62(32)}`;
}

export const hashApiKey = (key: string) => sha256Hex(key);

/** The part of a key that may be shown again in lists and logs: prefix and a few characters. */
export const displayPrefix = (key: string) => key.slice(0, key.lastIndexOf('_') + 5);

export const looksLikeApiKey = (value: string) => value.startsWith(API_KEY_PREFIX) && value.length >= 16 && value.length <= 200;

/** Ids of generated keys: `key_` plus 20 random characters (seeded keys may bring their own). */
export const newApiKeyId = () => `key_${randomBase62(20)}`;
