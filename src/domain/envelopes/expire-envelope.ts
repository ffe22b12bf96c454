import { and, eq, lte } from 'drizzle-orm';
import { envelopes } from '../../data/schema.js';
import type { Services } from '../../services.js';
import { recordEnvelopeEvent } from './envelope-events.js';

/**
 * Queue consumer: an envelope still out for signature when its expiry comes is expired, which
 * also kills its signing links. Every step may be repeated: the status change is conditional, and
 * a delivery retried after a partial failure completes the record instead of doubling it.
 */
export async function expireEnvelope(services: Services, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const now = services.clock.now();
  const { db } = services.database;
  const [changed] = await db
    .update(envelopes)
    .set({ status: 'expired' })
    .where(and(eq(envelopes.id, envelopeId), eq(envelopes.status, 'sent'), lte(envelopes.expiresAt, now)))
    .returning({ companyId: envelopes.companyId, title: envelopes.title, expiresAt: envelopes.expiresAt });
  const envelope =
    changed ??
    (
      await db
        .select({ companyId: envelopes.companyId, title: envelopes.title, expiresAt: envelopes.expiresAt })
        .from(envelopes)
        .where(and(eq(envelopes.id, envelopeId), eq(envelopes.status, 'expired')))
        .limit(1)
    )[0];
  if (!envelope) return;

  await recordEnvelopeEvent(services, {
    envelopeId,
    companyId: envelope.companyId,
    kind: 'envelope.expired',
    payload: { envelope_id: envelopeId, status: 'expired', title: envelope.title, expired_at: (envelope.expiresAt ?? now).toISOString() },
    actorType: 'system',
  });
}
