/**
 * Checking the code a signer enters against their newest one: every try counts, right or wrong,
 * and is counted before the comparison, so that no number of tries at once gets more than five.
 */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AuditKind } from '../../data/event-kinds.js';
import { verificationCodes } from '../../data/schema.js';
import { timingSafeEqual } from '../../lib/crypto.js';
import { signingWriteFailed } from '../shared/unavailable.js';
import type { LinkHead } from './resolve-link.js';
import { recordRepeatable } from './repeated-events.js';
import { signerAudit } from './signer-audit.js';
import type { SigningState } from './signing-state.js';
import type { SignerVerbContext } from '../verb-context.js';
import { CODE_TRIES, destinationOf, liveCode, recentCodes } from './verification-gate.js';
import { makeProof } from './verification-proof.js';
import { codeHash, linkAwaitingCode } from './verification-codes.js';

export type CodeCheckOutcome =
  | { kind: 'not_needed'; state: SigningState }
  /** The right code: the browser's proof, to keep. */
  | { kind: 'verified'; proof: string }
  | { kind: 'wrong'; triesLeft: number }
  /** The newest code is past its ten minutes, or had its five tries, or none was sent: send a new one. */
  | { kind: 'expired' }
  | { kind: 'dead' }
  | { kind: 'no_code' };

/** Checks `code` (six digits, as presented) against the recipient's newest code; every try counts, right or wrong. */
export async function checkVerificationCode(
  ctx: SignerVerbContext,
  input: { token: string; code: string; head?: Promise<LinkHead | null> },
): Promise<CodeCheckOutcome> {
  const { services } = ctx;
  const who = ctx.actor.signer;
  const open = await linkAwaitingCode(ctx, input.token, input.head);
  if (open.notNeeded) return open.notNeeded;
  const { link, now } = open;
  const { recipient, envelope } = link;
  const codes = await recentCodes(services, recipient.id, now);
  const newest = codes[0];
  if (!newest || newest.usedAt !== null) return { kind: 'no_code' };

  const { db } = services.database;
  const audit = (kind: Extract<AuditKind, 'recipient.code_failed' | 'recipient.verified'>, extra: Record<string, unknown>) => ({
    companyId: envelope.companyId,
    envelopeId: envelope.id,
    kind,
    createdAt: now,
    ...signerAudit(recipient, who, { channel: newest.channel, code_id: newest.id, ...extra }),
  });
  // A failed try is counted past the first few rows (repeated-events.ts): tries at a dead code cost
  // nothing, and must not grow the trail. They lock nobody out beyond the code's own rules (five
  // tries a code, five codes an hour): a lock-out on failures would let whoever holds the link keep
  // the signer from signing at all, and those rules already leave a guess one chance in 40,000 an hour.
  const failed = async (extra: Record<string, unknown>) => {
    const record = await recordRepeatable(recipient.id, audit('recipient.code_failed', extra));
    await services.database.atomic(record).catch((err: unknown) => {
      throw signingWriteFailed(err);
    });
  };
  const refused = async (reason: 'expired' | 'dead') => {
    await failed({ reason });
    return { kind: reason } as const;
  };
  if (!liveCode(codes, now)) return refused(newest.attempts >= CODE_TRIES ? 'dead' : 'expired');

  // The try is counted before the code is compared, so that no number of tries at once gets more than five.
  const [counted] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(
      and(
        eq(verificationCodes.id, newest.id),
        isNull(verificationCodes.usedAt),
        lt(verificationCodes.attempts, CODE_TRIES),
        gt(verificationCodes.expiresAt, now),
      ),
    )
    .returning({ attempts: verificationCodes.attempts });
  if (!counted) return refused(newest.expiresAt <= now ? 'expired' : 'dead');

  const right = timingSafeEqual(await codeHash(services.config.tokenSecret, recipient.id, input.code), newest.codeHash);
  if (!right) {
    await failed({ reason: 'wrong', attempt: counted.attempts, of: CODE_TRIES });
    return { kind: 'wrong', triesLeft: CODE_TRIES - counted.attempts };
  }
  // Each verification takes a code of its own, but codes go on being sent while the envelope is out.
  const verified = await recordRepeatable(recipient.id, audit('recipient.verified', { to: destinationOf(recipient) }));
  await services.database
    .atomic((q) => [
      q
        .update(verificationCodes)
        .set({ usedAt: now })
        .where(and(eq(verificationCodes.id, newest.id), isNull(verificationCodes.usedAt))),
      ...verified(q),
    ])
    .catch((err: unknown) => {
      throw signingWriteFailed(err);
    });
  return { kind: 'verified', proof: await makeProof(services.config.tokenSecret, recipient.id, now) };
}
