import { SignJWT, base64url } from 'jose';

/** Durations as QStash reads them in `Upstash-Delay` and `Upstash-Timeout`: `30s`, `5m`, `1h30m`, `2d`. */
export function parseDuration(text: string): number | undefined {
  const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const trimmed = text.trim();
  if (!/^(\d+(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(amount) * units[unit!]!;
  return total;
}

/** QStash's retry backoff: after the n-th failed attempt, min(1 day, e^(2.5·n)) seconds. */
export function backoffSeconds(failedAttempts: number): number {
  return Math.min(86_400, Math.exp(2.5 * failedAttempts));
}

/** A `Retry-After` header (delay-seconds or an HTTP date) in seconds, if it parses. */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/**
 * The `Upstash-Signature` QStash puts on each delivery, as @upstash/qstash's Receiver.verify checks
 * it: an HS256 JWT under the signing key's UTF-8 bytes, issuer "Upstash", subject the destination
 * URL, valid for 5 minutes, and `body` = base64url(SHA-256(raw body)).
 */
export async function signDelivery(signingKey: string, destination: string, body: Uint8Array, nowMs: number): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>);
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({ body: base64url.encode(new Uint8Array(digest)) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('Upstash')
    .setSubject(destination)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 300)
    .setJti(`jwt_${crypto.randomUUID().replaceAll('-', '')}`)
    .sign(new TextEncoder().encode(signingKey));
}
