/**
 * Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256(key, "id.timestamp.body")>`
 * where the key is the bytes after `whsec_`. Each attempt is signed anew with its own timestamp.
 */
import { createHmac } from 'node:crypto';

const encoder = new TextEncoder();

export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

const keyOf = (secret: string) => Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (char) => char.charCodeAt(0));

export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', keyOf(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`)));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

/**
 * The signatures, one per secret, of a body read as parts: every secret's HMAC takes each part as it
 * comes, so a body too large to hold is signed in one pass. WebCrypto's HMAC takes its message
 * whole; node:crypto's (on Workers through nodejs_compat) takes it in pieces.
 */
export async function signWebhookParts(secrets: string[], id: string, timestamp: number, body: AsyncIterable<Uint8Array>): Promise<string[]> {
  const macs = secrets.map((secret) => createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`));
  for await (const part of body) for (const mac of macs) mac.update(part);
  return macs.map((mac) => `v1,${mac.digest('base64')}`);
}
