/**
 * What a user of the application may do with an envelope of their company, and the void they do:
 * owners and administrators act on any envelope, members on those they sent, viewers on none. The
 * page asks `mayActOn` to show the buttons, and the verbs ask it again when the post arrives.
 */
import { and, eq } from 'drizzle-orm';
import { envelopes, type UserRole } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isEnvelopeId } from '../../lib/ids.js';
import { can } from '../app-access/roles.js';
import type { VerbContext } from '../verb-context.js';
import { envelopeNotFound } from './envelope-not-found.js';
import { envelopeToVoidColumns, type VoidedEnvelope, voidEnvelope } from './void-envelope.js';

export type AppUser = { id: string; role: UserRole; companyId: string };
export type UserActor = { kind: 'user'; userId: string; sessionId: string };

export const mayActOn = (user: AppUser, envelope: { senderUserId: string }): boolean =>
  can(user.role, 'envelopes:act-any') || (can(user.role, 'envelopes:act-own') && envelope.senderUserId === user.id);

/** The envelope's sender, read in the user's company: not found for another company's envelope, as for an unknown one. */
export async function senderOfCompanyEnvelope(ctx: VerbContext, user: AppUser, envelopeId: string): Promise<{ senderUserId: string }> {
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const [row] = await ctx.services.database.db
    .select({ senderUserId: envelopes.senderUserId })
    .from(envelopes)
    .where(and(eq(envelopes.id, envelopeId), eq(envelopes.companyId, user.companyId)))
    .limit(1);
  if (!row) throw envelopeNotFound(envelopeId);
  return row;
}

/** Refuses a user who may not act on the envelope. */
export async function assertMayActOn(ctx: VerbContext, user: AppUser, envelopeId: string): Promise<void> {
  const envelope = await senderOfCompanyEnvelope(ctx, user, envelopeId);
  if (!mayActOn(user, envelope)) throw new DomainError('permission_denied', 'You may not act on this envelope.', { envelope_id: envelopeId });
}

/**
 * The operator's void, acted by a user of the envelope's company who may act on it; the audit row
 * names them. The envelope is read once, in the user's company, for both the permission and the void.
 */
export async function voidAsUser(ctx: VerbContext<UserActor>, input: { user: AppUser; envelopeId: string; reason: string }): Promise<VoidedEnvelope> {
  const { user, envelopeId } = input;
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const [envelope] = await ctx.services.database.db
    .select({ ...envelopeToVoidColumns, senderUserId: envelopes.senderUserId })
    .from(envelopes)
    .where(and(eq(envelopes.id, envelopeId), eq(envelopes.companyId, user.companyId)))
    .limit(1);
  if (!envelope) throw envelopeNotFound(envelopeId);
  if (!mayActOn(user, envelope)) throw new DomainError('permission_denied', 'You may not act on this envelope.', { envelope_id: envelopeId });
  return voidEnvelope(ctx, { envelopeId, reason: input.reason, known: envelope });
}
