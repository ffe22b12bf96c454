import { eq, lte } from 'drizzle-orm';
import { envelopes } from '../../data/schema.js';
import type { VerbContext } from '../verb-context.js';
import { eventData } from '../webhooks/event-data.js';
import { endEnvelope } from './end-envelope.js';

/**
 * Queue consumer: an envelope still out for signature when its expiry comes is expired, which
 * also kills its signing links. Safe to repeat: the change and its records are one conditional
 * batch whose records have fixed ids.
 */
export async function expireEnvelope(ctx: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const { services, now } = ctx;
  const envelopeId = String(body.envelope_id);
  const [envelope] = await services.database.db
    .select({
      companyId: envelopes.companyId,
      title: envelopes.title,
      status: envelopes.status,
      expiresAt: envelopes.expiresAt,
      senderEmail: envelopes.senderEmail,
    })
    .from(envelopes)
    .where(eq(envelopes.id, envelopeId))
    .limit(1);
  if (envelope?.status !== 'sent' || !envelope.expiresAt || envelope.expiresAt > now) return;
  await endEnvelope(ctx, {
    envelope: { id: envelopeId, companyId: envelope.companyId },
    status: 'expired',
    when: lte(envelopes.expiresAt, now),
    payload: eventData({ envelope: { id: envelopeId, title: envelope.title, status: 'expired', senderEmail: envelope.senderEmail }, at: envelope.expiresAt }),
  });
}
