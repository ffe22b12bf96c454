/**
 * The secrets of the company application: the token in a sign-in link and the id in a session's
 * cookie. Each is 256 random bits; only its SHA-256 is stored, so a copy of the database signs
 * nobody in.
 */
import { base64url } from '../../lib/crypto.js';

export function newSecret(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

export async function secretHash(secret: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))));
}

/** A secret shaped like one of ours (43 characters of base64url); anything else is unknown without a look-up. */
export const isSecretShaped = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);
