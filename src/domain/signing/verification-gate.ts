/**
 * Whether a signer's link opens on the verification step: their role asks for a code, the link
 * would show something of the document (to sign, to wait, signed, a copy, completed), and this
 * browser holds no proof. The ended states (voided, declined, expired) show only the title and
 * sender, as the step itself does, so they need none.
 */
import { and, desc, eq, gt } from 'drizzle-orm';
import { verificationCodes } from '../../data/schema.js';
import type { Services } from '../../services.js';
import type { SignerVerbContext } from '../verb-context.js';
import { maskedEmail, maskedNumber } from './verification-contact.js';
import { verifyProof } from './verification-proof.js';
import type { Link } from './resolve-link.js';
import type { SigningState, VerificationStep } from './signing-state.js';

/** Five tries at one code, right or wrong; ten minutes to enter it; one send a minute, five an hour. */
export const CODE_TRIES = 5;
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const RESEND_AFTER_MS = 60 * 1000;
export const SENDS_PER_HOUR = 5;
export const HOUR_MS = 3600 * 1000;

/** What the document of a link whose role asks for a code answers before this browser entered it. */
export class VerificationRequired extends Error {
  constructor() {
    super('The signer has not entered their code in this browser yet.');
  }
}

const gated: readonly SigningState['kind'][] = ['sign', 'not_your_turn', 'signed', 'copy', 'completed'];

/** The verify state instead of `state`, or null when the signer may see it. */
export async function verificationGate(ctx: SignerVerbContext, link: Link, state: SigningState): Promise<SigningState | null> {
  const { recipient } = link;
  if (recipient.verification === 'none' || !gated.includes(state.kind) || !('envelope' in state)) return null;
  const { services, now } = ctx;
  if (await verifyProof(services.config.tokenSecret, recipient.id, ctx.actor.signer.proof, now)) return null;
  return { kind: 'verify', envelope: state.envelope, recipient: { name: recipient.name }, step: await verificationStep(services, recipient, now) };
}

type CodeRow = typeof verificationCodes.$inferSelect;

/** The codes sent to a recipient in the last hour, newest first: what the step and the send limits need. */
export async function recentCodes(services: Services, recipientId: string, now: Date): Promise<CodeRow[]> {
  return services.database.db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.recipientId, recipientId), gt(verificationCodes.sentAt, new Date(now.getTime() - HOUR_MS))))
    .orderBy(desc(verificationCodes.sentAt))
    .limit(SENDS_PER_HOUR + 1);
}

/** When the next code may be sent (null: now): a minute after the last, and an hour after the fifth last. */
export function nextSendAt(codes: Pick<CodeRow, 'sentAt'>[], now: Date): Date | null {
  const times = codes.map((code) => code.sentAt.getTime()).filter((at) => at > now.getTime() - HOUR_MS);
  const next = Math.max(times[0] !== undefined ? times[0] + RESEND_AFTER_MS : 0, times.length >= SENDS_PER_HOUR ? times[SENDS_PER_HOUR - 1]! + HOUR_MS : 0);
  return next > now.getTime() ? new Date(next) : null;
}

/** The newest code, if it can still be entered: unused, unexpired, tries left. Older codes never count. */
export function liveCode(codes: CodeRow[], now: Date): CodeRow | null {
  const newest = codes[0];
  return newest && newest.usedAt === null && newest.expiresAt > now && newest.attempts < CODE_TRIES ? newest : null;
}

export function channelOf(recipient: Link['recipient']): 'email' | 'sms' {
  return recipient.verification === 'sms_code' ? 'sms' : 'email';
}

/** Where the code goes, masked; an `sms_code` recipient always has a number (the send requires it). */
export function destinationOf(recipient: Link['recipient']): string {
  return channelOf(recipient) === 'sms' ? maskedNumber(recipient.contactNumber ?? '') : maskedEmail(recipient.email);
}

async function verificationStep(services: Services, recipient: Link['recipient'], now: Date): Promise<VerificationStep> {
  const codes = await recentCodes(services, recipient.id, now);
  const live = liveCode(codes, now);
  return {
    channel: channelOf(recipient),
    destination: destinationOf(recipient),
    code: live ? { expiresAt: live.expiresAt, triesLeft: CODE_TRIES - live.attempts } : null,
    nextSendAt: nextSendAt(codes, now),
  };
}
