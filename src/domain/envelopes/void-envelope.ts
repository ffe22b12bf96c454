import { and, eq } from 'drizzle-orm';
import { envelopes } from '../../data/schema.js';
import { ApiError } from '../../errors.js';
import type { Services } from '../../services.js';
import { recordEnvelopeEvent } from './envelope-events.js';
import { envelopeNotFound } from './get-signing-links.js';

export type VoidedEnvelope = { envelope_id: string; status: 'voided'; voided_at: string };

/**
 * Voids an envelope still out for signature: its signing links stop working at once, reminders
 * and expiry become no-ops, and an `envelope.voided` webhook event goes out. Voiding a voided
 * envelope again answers the same; a finished one (completed, declined, expired) cannot be voided.
 */
export async function voidEnvelope(services: Services, envelopeId: string, reason: string | null): Promise<VoidedEnvelope> {
  const now = services.clock.now();
  const { db } = services.database;
  const [changed] = await db
    .update(envelopes)
    .set({ status: 'voided', voidedAt: now })
    .where(and(eq(envelopes.id, envelopeId), eq(envelopes.status, 'sent')))
    .returning({ companyId: envelopes.companyId, title: envelopes.title, voidedAt: envelopes.voidedAt });
  const envelope =
    changed ??
    (
      await db
        .select({ companyId: envelopes.companyId, title: envelopes.title, voidedAt: envelopes.voidedAt, status: envelopes.status })
        .from(envelopes)
        .where(eq(envelopes.id, envelopeId))
        .limit(1)
    ).map((row) => {
      if (row.status !== 'voided') {
        throw new ApiError('conflict', `The envelope is ${row.status} and can no longer be voided.`, { envelope_id: envelopeId, status: row.status });
      }
      return row;
    })[0];
  if (!envelope) throw envelopeNotFound(envelopeId);

  const voidedAt = (envelope.voidedAt ?? now).toISOString();
  await recordEnvelopeEvent(services, {
    envelopeId,
    companyId: envelope.companyId,
    kind: 'envelope.voided',
    payload: { envelope_id: envelopeId, status: 'voided', title: envelope.title, voided_at: voidedAt, reason },
    actorType: 'admin',
    auditData: { reason },
  });
  return { envelope_id: envelopeId, status: 'voided', voided_at: voidedAt };
}
