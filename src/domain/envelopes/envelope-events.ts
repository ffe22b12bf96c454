import { and, eq, type SQL, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { auditEvents, envelopes, outboxMessages, webhookEvents, type EnvelopeStatus } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { type OutboxMessage, relayOutbox } from '../../outbox/outbox.js';
import type { Services } from '../../services.js';
import { topics } from './follow-ups.js';

/**
 * Ends an envelope still out for signature (voided, expired) in one batch: the conditional status
 * change, its audit row, its webhook event and the event's dispatch in the outbox, each written
 * only if the envelope is in the new status when the batch reaches it. The ids are fixed by
 * envelope and kind, so doing it again (a retried queue delivery, a repeated void) adds nothing,
 * and a change that lost a race (voided while it expired) records nothing of its own.
 */
export async function endEnvelope(
  services: Services,
  change: {
    envelope: { id: string; companyId: string };
    status: Extract<EnvelopeStatus, 'voided' | 'expired'>;
    /** Only an envelope matching this (as well as being out for signature) changes. */
    when?: SQL;
    set?: Partial<typeof envelopes.$inferInsert>;
    payload: Record<string, unknown>;
    actorType: 'admin' | 'system';
    auditData?: Record<string, unknown>;
  },
): Promise<{ changed: boolean }> {
  const now = services.clock.now();
  const { envelope, status } = change;
  const kind = `envelope.${status}`;
  const eventId = `msg_${status}_${envelope.id}`;
  const dispatch: OutboxMessage = { topic: topics.webhookDispatch, body: { event_id: eventId }, dedupeId: eventId };
  const auditId = await uuidFromName(`${envelope.id}:${kind}`);
  const nowInStatus = sql`exists (select 1 from ${envelopes} where ${and(eq(envelopes.id, envelope.id), eq(envelopes.status, status))})`;
  const [updated] = await services.database.atomic((q) => [
    q
      .update(envelopes)
      .set({ ...change.set, status })
      .where(and(eq(envelopes.id, envelope.id), eq(envelopes.status, 'sent'), change.when))
      .returning({ id: envelopes.id }),
    insertWhen(q, webhookEvents, { id: eventId, companyId: envelope.companyId, envelopeId: envelope.id, kind, payload: change.payload, createdAt: now }, nowInStatus),
    insertWhen(
      q,
      auditEvents,
      {
        id: auditId,
        companyId: envelope.companyId,
        envelopeId: envelope.id,
        kind,
        actorType: change.actorType,
        data: change.auditData ?? {},
        createdAt: now,
      },
      nowInStatus,
    ),
    insertWhen(
      q,
      outboxMessages,
      { id: dispatch.dedupeId, companyId: envelope.companyId, topic: dispatch.topic, body: dispatch.body, createdAt: now },
      nowInStatus,
    ),
  ]);
  const changed = (updated as unknown[]).length > 0;
  if (changed) await relayOutbox(services, [dispatch]);
  return { changed };
}
