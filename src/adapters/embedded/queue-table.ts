/**
 * The statements of the embedded queue over `queued_messages` (and `dead_jobs`), for one queue
 * name. Lists travel as arrays, never as `in (…)` lists, so each statement has one text whatever
 * the number of rows, and the database keeps it prepared.
 */
import { and, asc, eq, inArray, lte, min, sql } from 'drizzle-orm';
import type { Database } from '../../data/database.js';
import { queuedMessages } from '../../data/schema.js';

export type QueuedRow = typeof queuedMessages.$inferSelect;
export type NewQueuedRow = Pick<QueuedRow, 'id' | 'topic' | 'body' | 'dueAt' | 'createdAt'>;

export class QueueTable {
  constructor(
    private readonly database: Database,
    readonly name: string,
  ) {}

  /** Stores messages; one whose id is queued already stays as it is. */
  async store(rows: NewQueuedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.database.db
      .insert(queuedMessages)
      .values(rows.map((row) => ({ ...row, queue: this.name, attempt: 0 })))
      .onConflictDoNothing();
  }

  /**
   * Stores the messages of committed outbox rows and marks those rows relayed, in one statement:
   * a row is marked only if its messages are stored, and both or neither happen.
   */
  async storeRelayed(rows: NewQueuedRow[], outbox: { ids: string[]; relayedAt: Date }): Promise<void> {
    await this.database.db.execute(sql`
      with relayed as (
        update outbox_messages set relayed_at = ${outbox.relayedAt.toISOString()}::timestamptz
        where id = any(${sql.param(outbox.ids)}::text[]) and relayed_at is null
      )
      insert into queued_messages (id, queue, topic, body, due_at, attempt, created_at)
      select m.id, ${this.name}, m.topic, m.body::jsonb, m.due_at::timestamptz, 0, m.created_at::timestamptz
      from unnest(
        ${sql.param(rows.map((row) => row.id))}::text[], ${sql.param(rows.map((row) => row.topic))}::text[],
        ${sql.param(rows.map((row) => JSON.stringify(row.body)))}::text[], ${sql.param(rows.map((row) => row.dueAt.toISOString()))}::text[],
        ${sql.param(rows.map((row) => row.createdAt.toISOString()))}::text[]
      ) as m(id, topic, body, due_at, created_at)
      on conflict do nothing`);
  }

  /**
   * Takes up to `limit` rows due by `now`, earliest first, leaving out those being delivered, and
   * counts the attempt each is about to get before it starts.
   */
  async claimDue(now: Date, inFlight: string[], limit: number): Promise<QueuedRow[]> {
    const { db } = this.database;
    const due = db
      .select({ id: queuedMessages.id })
      .from(queuedMessages)
      .where(and(eq(queuedMessages.queue, this.name), lte(queuedMessages.dueAt, now), notAmong(inFlight)))
      .orderBy(asc(queuedMessages.dueAt))
      .limit(limit);
    const rows = await db
      .update(queuedMessages)
      .set({ attempt: sql`${queuedMessages.attempt} + 1` })
      .where(inArray(queuedMessages.id, due))
      .returning();
    return rows.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
  }

  /** When the earliest row not being delivered is due, if there is one. */
  async nextDue(inFlight: string[]): Promise<Date | undefined> {
    const [next] = await this.database.db
      .select({ dueAt: min(queuedMessages.dueAt) })
      .from(queuedMessages)
      .where(and(eq(queuedMessages.queue, this.name), notAmong(inFlight)));
    return next?.dueAt ? new Date(next.dueAt) : undefined;
  }

  /** Removes the rows of messages whose consumers succeeded. */
  async remove(ids: string[]): Promise<void> {
    await this.database.db.delete(queuedMessages).where(sql`${queuedMessages.id} = any(${sql.param(ids)}::text[])`);
  }

  /** Sets a failed message's next attempt, and why this one failed. */
  async retryAt(id: string, dueAt: Date, lastError: string): Promise<void> {
    await this.database.db.update(queuedMessages).set({ dueAt, lastError }).where(eq(queuedMessages.id, id));
  }

  /**
   * Moves a message that failed its last attempt to `dead_jobs`, in one statement. A record left by
   * an earlier death of the same job is replaced.
   */
  async bury(id: string, attempts: number, lastError: string, failedAt: Date): Promise<void> {
    await this.database.db.execute(sql`
      with buried as (delete from queued_messages where id = ${id} returning id, topic, body)
      insert into dead_jobs (id, topic, body, attempts, last_error, failed_at)
      select id, topic, body, ${attempts}, ${lastError}, ${failedAt.toISOString()}::timestamptz from buried
      on conflict (id) do update set topic = excluded.topic, body = excluded.body, attempts = excluded.attempts,
        last_error = excluded.last_error, failed_at = excluded.failed_at`);
  }
}

const notAmong = (ids: string[]) => sql`not (${queuedMessages.id} = any(${sql.param(ids)}::text[]))`;
