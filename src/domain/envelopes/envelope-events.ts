import { auditEvents, webhookEvents } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { topics } from './follow-ups.js';

/**
 * Records that an envelope reached a terminal status (`envelope.voided`, `envelope.expired`): its
 * audit row and webhook event, then the event's dispatch. The ids are fixed by envelope and kind,
 * so doing it again (a retried queue delivery, a repeated void) completes the record rather than
 * doubling it, and the queue drops the repeated dispatch by its deduplication id.
 */
export async function recordEnvelopeEvent(
  services: Services,
  event: {
    envelopeId: string;
    companyId: string;
    kind: 'envelope.voided' | 'envelope.expired';
    payload: Record<string, unknown>;
    actorType: 'admin' | 'system';
    auditData?: Record<string, unknown>;
  },
): Promise<void> {
  const now = services.clock.now();
  const eventId = `msg_${event.kind.replace('envelope.', '')}_${event.envelopeId}`;
  const auditId = await uuidFromName(`${event.envelopeId}:${event.kind}`);
  await services.database.atomic((q) => [
    q
      .insert(webhookEvents)
      .values({ id: eventId, companyId: event.companyId, envelopeId: event.envelopeId, kind: event.kind, payload: event.payload, createdAt: now })
      .onConflictDoNothing(),
    q
      .insert(auditEvents)
      .values({
        id: auditId,
        companyId: event.companyId,
        envelopeId: event.envelopeId,
        kind: event.kind,
        actorType: event.actorType,
        data: event.auditData ?? {},
        createdAt: now,
      })
      .onConflictDoNothing(),
  ]);
  await services.queue.publish([{ topic: topics.webhookDispatch, body: { event_id: eventId }, dedupeId: eventId }]);
}
