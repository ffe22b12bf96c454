import { and, eq, lte } from 'drizzle-orm';
import { auditEvents, envelopes, webhookEvents } from '../../data/schema.js';
import { randomBase62 } from '../../lib/crypto.js';
import type { Services } from '../../services.js';
import { topics } from './follow-ups.js';

/**
 * Queue consumer: an envelope still out for signature when its expiry comes is expired, which
 * also kills its signing links. The conditional update makes a repeated delivery a no-op.
 */
export async function expireEnvelope(services: Services, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const now = services.clock.now();
  const [expired] = await services.database.db
    .update(envelopes)
    .set({ status: 'expired' })
    .where(and(eq(envelopes.id, envelopeId), eq(envelopes.status, 'sent'), lte(envelopes.expiresAt, now)))
    .returning({ companyId: envelopes.companyId, title: envelopes.title });
  if (!expired) return;
  const eventId = `msg_${randomBase62(24)}`;
  await services.database.atomic((q) => [
    q.insert(auditEvents).values({ companyId: expired.companyId, envelopeId, kind: 'envelope.expired', actorType: 'system', data: {}, createdAt: now }),
    q.insert(webhookEvents).values({
      id: eventId,
      companyId: expired.companyId,
      envelopeId,
      kind: 'envelope.expired',
      payload: { envelope_id: envelopeId, status: 'expired', title: expired.title, expired_at: now.toISOString() },
      createdAt: now,
    }),
  ]);
  await services.queue.publish([{ topic: topics.webhookDispatch, body: { event_id: eventId }, dedupeId: eventId }]);
}
