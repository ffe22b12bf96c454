/**
 * What sending a signer their code and checking it share. A code is six digits from the platform's
 * CSPRNG, sent straight from the request (a queue message carries no secrets, and only the code's
 * keyed hash is kept, from which no consumer could rebuild it), and lives ten minutes for five
 * tries: send-verification-code.ts sends one, check-verification-code.ts checks what the signer enters.
 */
import { derivedHmacKey, hmacBase64url } from '../../lib/crypto.js';
import type { SignerVerbContext } from '../verb-context.js';
import { linkState } from './link-state.js';
import { type LinkHead, resolveLink } from './resolve-link.js';
import type { SigningState } from './signing-state.js';
import { verificationGate } from './verification-gate.js';

/** Six digits, uniform: values of 32 bits at or above the last whole million are drawn again. */
export function sixDigitCode(): string {
  const limit = 4_294_000_000;
  for (;;) {
    const [value] = crypto.getRandomValues(new Uint32Array(1));
    if (value! < limit) return String(value! % 1_000_000).padStart(6, '0');
  }
}

/** The kept form of a code: an HMAC under a key of the token secret's, bound to the recipient. */
export async function codeHash(tokenSecret: Uint8Array, recipientId: string, code: string): Promise<string> {
  return hmacBase64url(await derivedHmacKey(tokenSecret, 'esign verification code v1'), `${recipientId}.${code}`);
}

/**
 * The link a code is asked for, when its signer still has to enter one: otherwise the state its
 * page shows instead (an invalid link, a finished envelope, a signer already verified).
 */
export async function linkAwaitingCode(
  ctx: SignerVerbContext,
  token: string,
  head?: Promise<LinkHead | null>,
): Promise<{ notNeeded: NotNeeded } | { notNeeded?: undefined; link: ResolvedLink; now: Date }> {
  const link = await resolveLink(ctx.services, token, head);
  if (!link) return { notNeeded: { kind: 'not_needed', state: { kind: 'invalid' } } };
  const { now } = ctx;
  const state = linkState(link, now);
  if (!(await verificationGate(ctx, link, state))) return { notNeeded: { kind: 'not_needed', state } };
  return { link, now };
}

export type NotNeeded = { kind: 'not_needed'; state: SigningState };
type ResolvedLink = NonNullable<Awaited<ReturnType<typeof resolveLink>>>;
