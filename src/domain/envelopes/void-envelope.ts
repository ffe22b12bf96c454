import { eq } from 'drizzle-orm';
import { type EnvelopeStatus, envelopes } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isEnvelopeId } from '../../lib/ids.js';
import type { VerbContext } from '../verb-context.js';
import { eventData } from '../webhooks/event-data.js';
import { endEnvelope } from './end-envelope.js';
import { envelopeNotFound } from './envelope-not-found.js';

export type VoidedEnvelope = { envelope_id: string; status: 'voided'; voided_at: string };

/** What a void reads of the envelope; a caller that read it already (the application) hands it in. */
export const envelopeToVoidColumns = {
  companyId: envelopes.companyId,
  title: envelopes.title,
  status: envelopes.status,
  voidedAt: envelopes.voidedAt,
  senderEmail: envelopes.senderEmail,
};
export type EnvelopeToVoid = { companyId: string; title: string; status: EnvelopeStatus; voidedAt: Date | null; senderEmail: string };

/**
 * Voids an envelope still out for signature: its signing links stop working at once, reminders
 * and expiry become no-ops, and an `envelope.voided` webhook event goes out. Voiding a voided
 * envelope again answers the same; a finished one (completed, declined, expired) cannot be voided.
 */
export async function voidEnvelope(
  ctx: VerbContext<{ kind: 'operator' } | { kind: 'user'; userId: string; sessionId: string }>,
  input: { envelopeId: string; reason: string | null; known?: EnvelopeToVoid },
): Promise<VoidedEnvelope> {
  const { envelopeId, reason } = input;
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const { services, now } = ctx;
  const read = () =>
    services.database.db
      .select(envelopeToVoidColumns)
      .from(envelopes)
      .where(eq(envelopes.id, envelopeId))
      .limit(1)
      .then(([row]) => row);
  const before = input.known ?? (await read());
  if (!before) throw envelopeNotFound(envelopeId);
  if (before.status === 'sent') {
    const { changed } = await endEnvelope(ctx, {
      envelope: { id: envelopeId, companyId: before.companyId },
      status: 'voided',
      set: { voidedAt: now },
      payload: eventData({ envelope: { id: envelopeId, title: before.title, status: 'voided', senderEmail: before.senderEmail }, at: now, reason }),
      auditData: { reason },
    });
    // This void took: the envelope is voided now, nothing to read again.
    if (changed) return { envelope_id: envelopeId, status: 'voided', voided_at: now.toISOString() };
  }
  // Read again: a race may have ended the envelope otherwise in the meantime.
  const after = before.status === 'sent' ? await read() : before;
  if (after?.status !== 'voided') {
    const status = after?.status ?? 'gone';
    throw new DomainError('conflict', `The envelope is ${status} and can no longer be voided.`, { envelope_id: envelopeId, status });
  }
  return { envelope_id: envelopeId, status: 'voided', voided_at: (after.voidedAt ?? now).toISOString() };
}
