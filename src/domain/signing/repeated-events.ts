/**
 * What a signer, or whoever holds their link, can repeat for as long as the envelope is out (tries
 * at a dead or expired code, codes sent, verifications) is recorded without growing without bound:
 * the first KEPT_ROWS of a kind per recipient are audit rows of their own, with the time, address
 * and browser of each, and every one after them is counted on a single row kept up to date (how
 * many, the first and the last time, and the latest one's address, browser and details).
 *
 * The count is an audit row updated in place, not a table of its own: the trail, the admin
 * endpoint and the certificate read one table in one order, and the row's id is fixed by the
 * recipient and the kind, so tries made at once add to the same row. It is the only audit row that
 * ever changes, and only its count and latest times; the rows before it never do.
 */
import { and, eq, getTableColumns, gt, lte, ne, or, sql } from 'drizzle-orm';
import type { Db, Statement } from '../../data/database.js';
import { insertWhen } from '../../data/insert-when.js';
import { auditEvents, recipients } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import type { Services } from '../../services.js';

/** Rows of their own per recipient and kind before the rest are counted; the certificate lists as many. */
export const KEPT_ROWS = 10;

/** The kind of the row that counts a recipient's further events of one kind (`data.counts`). */
export const COUNTED_KIND = 'recipient.repeated';

// The trail's rows as the certificate reads them: their order is settled by the query that reads them.
type Audit = Omit<typeof auditEvents.$inferSelect, 'seq'>;
export type RepeatableEvent = Omit<typeof auditEvents.$inferInsert, 'id' | 'createdAt'> & { envelopeId: string; createdAt: Date };

/**
 * The statements that record `event` of the recipient `recipientId` in a batch: its own row while
 * the recipient has fewer than KEPT_ROWS of its kind, else one more on the count. The recipient's
 * row is locked first, so that tries at once never keep more than KEPT_ROWS between them.
 */
export async function recordRepeatable(recipientId: string, event: RepeatableEvent): Promise<(q: Db) => Statement[]> {
  const ownId = crypto.randomUUID();
  const countId = await uuidFromName(`${recipientId}:${event.kind}:counted`);
  const at = event.createdAt.toISOString();
  const kept = sql`(select count(*) from (select 1 from ${auditEvents} where ${auditEvents.envelopeId} = ${event.envelopeId}
    and ${auditEvents.kind} = ${event.kind} and ${auditEvents.data}->>'recipient_id' = ${recipientId} limit ${KEPT_ROWS}) kept) < ${KEPT_ROWS}`;
  // The first time is kept and the count grows by one; the rest is the latest event's (time, address, browser, details).
  const counted = sql`on conflict (id) do update set data = excluded.data
    || jsonb_build_object('count', (${auditEvents}.data->>'count')::bigint + 1, 'first_at', ${auditEvents}.data->'first_at') where ${auditEvents}.kind = ${COUNTED_KIND}`;
  return (q) => [
    q
      .update(recipients)
      .set({ status: sql`${recipients.status}` })
      .where(eq(recipients.id, recipientId)),
    insertWhen(q, auditEvents, { ...event, id: ownId }, kept),
    insertWhen(
      q,
      auditEvents,
      {
        ...event,
        id: countId,
        kind: COUNTED_KIND,
        data: { ...event.data, recipient_id: recipientId, counts: event.kind, count: 1, first_at: at, last_at: at },
      },
      sql`not exists (select 1 from ${auditEvents} where ${auditEvents.id} = ${ownId})`,
      counted,
    ),
  ];
}

/**
 * An envelope's trail as the certificate needs it, read bounded whatever was stored: per recipient
 * and kind, the first KEPT_ROWS rows, and the rest as one counted row (rows that older versions
 * wrote one per try are counted here as the current version counts them), beside the counted rows
 * themselves. Oldest first.
 */
export async function boundedTrail(services: Services, envelopeId: string, companyId: string): Promise<Audit[]> {
  const { db } = services.database;
  const recipientOf = sql<string | null>`${auditEvents.data}->>'recipient_id'`;
  const numbered = db.$with('numbered').as(
    db
      .select({
        ...getTableColumns(auditEvents),
        recipientId: recipientOf.as('recipient_of'),
        nth: sql<number>`row_number() over (partition by ${recipientOf}, ${auditEvents.kind} order by ${auditEvents.createdAt}, ${auditEvents.seq})`.as('nth'),
      })
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.companyId, companyId))),
  );
  const [kept, surplus] = await Promise.all([
    db
      .with(numbered)
      .select()
      .from(numbered)
      .where(or(lte(numbered.nth, KEPT_ROWS), eq(numbered.kind, COUNTED_KIND))),
    db
      .with(numbered)
      .select({
        recipientId: numbered.recipientId,
        kind: numbered.kind,
        count: sql<number>`count(*)`.mapWith(Number),
        first: sql<Date>`min(${numbered.createdAt})`.mapWith(auditEvents.createdAt),
        last: sql<Date>`max(${numbered.createdAt})`.mapWith(auditEvents.createdAt),
      })
      .from(numbered)
      .where(and(gt(numbered.nth, KEPT_ROWS), ne(numbered.kind, COUNTED_KIND)))
      .groupBy(numbered.recipientId, numbered.kind),
  ]);
  const rows: Audit[] = kept.map(({ recipientId: _recipient, nth: _nth, ...row }) => row);
  for (const group of surplus) {
    rows.push({
      id: `${group.recipientId}:${group.kind}:stored`,
      companyId,
      envelopeId,
      kind: COUNTED_KIND,
      actorType: 'system',
      actorId: null,
      data: { recipient_id: group.recipientId, counts: group.kind, count: group.count, first_at: group.first.toISOString(), last_at: group.last.toISOString() },
      createdAt: group.first,
    });
  }
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}
