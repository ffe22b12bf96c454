import type { SQL } from 'drizzle-orm';
import type { Db, Statement } from '../../data/database.js';
import type { AuditKind, EventKind } from '../../data/event-kinds.js';
import { insertWhen } from '../../data/insert-when.js';
import { auditEvents, outboxMessages, webhookEvents } from '../../data/schema.js';
import type { OutboxMessage } from '../../outbox/outbox.js';
import { queueTopics } from '../queue-topics.js';

export type AuditEntry = {
  /** Fixed by what it records (uuidFromName), so that a repeated change records it once. */
  id: string;
  kind: AuditKind;
  actorType: 'api_key' | 'admin' | 'recipient' | 'system' | 'user';
  actorId?: string | null;
  data?: Record<string, unknown>;
};

/** What a state change records: its audit rows, its webhook event, and its side effects. */
export type ChangeRecord = {
  companyId: string;
  envelopeId: string;
  at: Date;
  audit: AuditEntry[];
  /** The webhook event, its id fixed by what happened (`msg_signed_<recipient>`); its dispatch is added. */
  event?: { id: string; kind: EventKind; payload: Record<string, unknown> };
  outbox?: OutboxMessage[];
};

/** The side effects of a change, the dispatch of its webhook event included: what to relay once committed. */
export function sideEffectsOf(record: ChangeRecord): OutboxMessage[] {
  const dispatch: OutboxMessage[] = record.event
    ? [{ topic: queueTopics.webhookDispatch, body: { event_id: record.event.id }, dedupeId: record.event.id }]
    : [];
  return [...dispatch, ...(record.outbox ?? [])];
}

/**
 * The statements that record a change, each written only if `happened` holds when the batch
 * reaches it (the change's own conditional update made it true). Ids are fixed, so a change
 * repeated (a double click, a redelivered message) records nothing twice.
 */
export function recordChange(q: Db, record: ChangeRecord, happened: SQL): Statement[] {
  const { companyId, envelopeId, at } = record;
  return [
    ...(record.event
      ? [
          insertWhen(
            q,
            webhookEvents,
            { id: record.event.id, companyId, envelopeId, kind: record.event.kind, payload: record.event.payload, createdAt: at },
            happened,
          ),
        ]
      : []),
    ...record.audit.map((entry) =>
      insertWhen(
        q,
        auditEvents,
        {
          id: entry.id,
          companyId,
          envelopeId,
          kind: entry.kind,
          actorType: entry.actorType,
          actorId: entry.actorId ?? null,
          data: entry.data ?? {},
          createdAt: at,
        },
        happened,
      ),
    ),
    ...sideEffectsOf(record).map((message) =>
      insertWhen(
        q,
        outboxMessages,
        { id: message.dedupeId, companyId, topic: message.topic, body: message.body, dueAt: message.notBefore ?? null, createdAt: at },
        happened,
      ),
    ),
  ];
}
