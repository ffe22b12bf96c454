import { and, asc, eq, inArray, lte, min, sql } from 'drizzle-orm';
import type { Database } from '../../data/database.js';
import { queuedMessages } from '../../data/schema.js';
import { randomBase62 } from '../../lib/crypto.js';
import { logError } from '../../lib/log-error.js';
import type { Queue, QueueMessage } from '../../ports/queue.js';

/** How long the queue waits at most before it looks at its table again (rows another process wrote). */
const MAX_WAIT_MS = 60_000;
const BATCH = 100;
const MAX_REMEMBERED_IDS = 100_000;
/**
 * How long a relay waits for others to share its statement. Nothing waits on it: the messages due
 * now are delivered at once, and until the statement runs the outbox rows keep every message safe
 * (the sweeper hands over whatever a stopped server left). Under load, one statement then serves
 * the relays of several sends instead of about one each.
 */
const RELAY_GATHER_MS = 10;
/** The queue of the embedded server: the same name from one start to the next. */
export const DEFAULT_QUEUE = 'embedded';

export type Consumer = (message: QueueMessage) => Promise<void>;
type Row = typeof queuedMessages.$inferSelect;
/** Rows to store and outbox rows to mark relayed, waiting for the next statement; `done` settles with it. */
type Relay = {
  rows: Row[];
  /**
   * The deliveries of its messages due now: true once each has been delivered or stored for its
   * retry, false if one could be neither (the database failed): its outbox rows then stay unrelayed.
   */
  delivering: Promise<boolean>;
  settled: boolean;
  lost: boolean;
  outboxIds: string[];
  relayedAt: Date;
  done: { resolve: () => void; reject: (err: unknown) => void };
};

/**
 * The embedded queue. A message due now is delivered from memory at once; whatever waits (a message
 * due later, a retry after its backoff, as many retries as QStash makes of ours) is a row of
 * `queued_messages` until its consumer has run. So a restart of the server keeps every pending
 * reminder, expiry and retry, and a message due in days holds no timer: one timer waits for the
 * earliest row. A stored message is delivered at least once: a server that dies mid-delivery
 * delivers it again on its next start, and every consumer is safe to run twice.
 */
export class InProcessQueue implements Queue {
  private consumer: Consumer | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private running: Promise<void> | undefined;
  private closed = false;
  /** Rows being delivered now, so a timer run does not deliver them a second time. */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  /** Ids delivered lately: a relay handed over twice is delivered once. */
  private readonly seen = new Set<string>();

  private readonly name: string;
  /** Relays waiting while the statement of earlier ones runs: the next statement takes them all. */
  private relays: Relay[] = [];
  private relaying: Promise<void> | undefined;
  /** Wakes the relay loop when a relay is added: its deliveries may end before those it waits for. */
  private relayAdded: () => void = () => {};

  constructor(
    private readonly database: Database,
    private readonly options: { name?: string; maxRetries?: number; backoffMs?: (attempt: number) => number } = {},
  ) {
    this.name = options.name ?? DEFAULT_QUEUE;
  }

  /** The app registers what to do with each topic once it is built; rows a previous run left are then delivered. */
  consume(consumer: Consumer): void {
    this.consumer = consumer;
    this.arm(0);
  }

  async publish(messages: QueueMessage[]): Promise<void> {
    const { later } = this.accept(messages);
    if (later.length === 0) return;
    let written: { dueAt: Date }[];
    try {
      written = await this.database.db.insert(queuedMessages).values(later).onConflictDoNothing().returning({ dueAt: queuedMessages.dueAt });
    } catch (err) {
      this.forget(later);
      throw err;
    }
    this.armFor(written.map((row) => row.dueAt));
  }

  /**
   * The relay of committed outbox rows (outbox.ts): messages due now go as `publish` sends them;
   * storing those due later and marking the outbox rows relayed is one statement, shared by the
   * relays of every request that comes within RELAY_GATHER_MS or while the previous statement
   * runs. A statement that fails fails all of its relays, whose rows the outbox sweeper then hands
   * over again.
   *
   * The rows are marked only once the messages due now have been delivered (or stored for their
   * retry): those live in memory until then, and a server that stops before that leaves their
   * rows unrelayed, for the sweeper of its next start to hand over again. A relay whose message
   * due now failed and could not be stored for its retry fails too, leaving its rows unrelayed for
   * the sweeper of this run. At least once.
   */
  relayFromOutbox(messages: QueueMessage[], outbox: { ids: string[]; relayedAt: Date }): Promise<void> {
    const { later, delivering } = this.accept(messages);
    return new Promise((resolve, reject) => {
      const relay: Relay = { rows: later, delivering, settled: false, lost: false, outboxIds: outbox.ids, relayedAt: outbox.relayedAt, done: { resolve, reject } };
      void delivering.then((kept) => {
        relay.settled = true;
        relay.lost = !kept;
      });
      this.relays.push(relay);
      this.relayAdded();
      this.relaying ??= this.storeRelays();
    });
  }

  private async storeRelays(): Promise<void> {
    try {
      await new Promise((gathered) => setTimeout(gathered, RELAY_GATHER_MS));
      while (this.relays.length > 0) {
        // The relays whose deliveries have ended go first: a consumer may be waiting for a relay of
        // its own (a signing's next turn), which must not wait for that consumer in turn.
        if (!this.relays.some((relay) => relay.settled)) {
          const added = new Promise<void>((wake) => (this.relayAdded = wake));
          await Promise.race([added, ...this.relays.map((relay) => relay.delivering)]);
          continue;
        }
        const settled = this.relays.filter((relay) => relay.settled);
        this.relays = this.relays.filter((relay) => !relay.settled);
        // A delivery cut short by the close may be neither done nor stored, and one whose retry could
        // not be stored is nowhere: such relays are left to the sweeper whole, timers included.
        const [kept, left] = this.closed ? [[], settled] : [settled.filter((relay) => !relay.lost), settled.filter((relay) => relay.lost)];
        for (const relay of left) {
          this.forget(relay.rows);
          relay.done.reject(new Error(this.closed ? 'the queue closed before the relay was stored' : 'a message due now was neither delivered nor stored for its retry'));
        }
        if (kept.length > 0) await this.writeRelays(kept);
      }
    } finally {
      // In the same turn as the last batch's answers, before a caller it answered can add a relay
      // that would otherwise wait for a loop that has ended.
      this.relaying = undefined;
    }
  }

  /** One statement for these relays: their timers stored, their outbox rows marked relayed. */
  private async writeRelays(relays: Relay[]): Promise<void> {
    const rows = relays.flatMap((relay) => relay.rows);
    try {
      // One text whatever the number of rows (arrays, not lists), so the database keeps it prepared;
      // the rows of one statement are marked at the time of its first relay, milliseconds apart.
      const written = await this.database.db.execute(sql`
        with relayed as (
          update outbox_messages set relayed_at = ${relays[0]!.relayedAt.toISOString()}::timestamptz
          where id = any(${sql.param(relays.flatMap((relay) => relay.outboxIds))}::text[]) and relayed_at is null
        )
        insert into queued_messages (id, queue, topic, body, due_at, attempt, created_at)
        select m.id, ${this.name}, m.topic, m.body::jsonb, m.due_at::timestamptz, 0, m.created_at::timestamptz
        from unnest(
          ${sql.param(rows.map((row) => row.id))}::text[], ${sql.param(rows.map((row) => row.topic))}::text[],
          ${sql.param(rows.map((row) => JSON.stringify(row.body)))}::text[], ${sql.param(rows.map((row) => row.dueAt.toISOString()))}::text[],
          ${sql.param(rows.map((row) => row.createdAt.toISOString()))}::text[]
        ) as m(id, topic, body, due_at, created_at)
        on conflict do nothing
        returning due_at`);
      this.armFor(resultRows<{ due_at: string | Date }>(written).map((row) => new Date(row.due_at)));
      for (const relay of relays) relay.done.resolve();
    } catch (err) {
      this.forget(rows);
      for (const relay of relays) relay.done.reject(err);
    }
  }

  /**
   * Takes new messages in: each is remembered, one due now is delivered from memory at once (and
   * kept as a row only if it fails: its retry waits). Answers the rows of those due later, and the
   * deliveries under way.
   */
  private accept(messages: QueueMessage[]): { later: Row[]; delivering: Promise<boolean> } {
    const fresh = messages.filter((message) => !(message.dedupeId && this.seen.has(message.dedupeId)));
    // One handed over again (a repeated relay, the sweeper) while still being delivered: wait for that.
    const running = messages.flatMap((message) => (message.dedupeId && this.inFlight.get(message.dedupeId)) || []);
    if (fresh.length === 0) return { later: [], delivering: allKept(running) };
    const now = Date.now();
    const rows = fresh.map((message) => ({
      id: message.dedupeId ?? `qm_${randomBase62(22)}`,
      queue: this.name,
      topic: message.topic,
      body: message.body,
      dueAt: new Date(Math.max(now, message.notBefore?.getTime() ?? now)),
      attempt: 0,
      createdAt: new Date(now),
    }));
    for (const row of rows) this.remember(row.id);
    const due = rows.filter((row) => row.dueAt.getTime() <= now);
    const delivering = allKept([...running, ...(due.length > 0 ? [this.deliver(due, false)] : [])]);
    return { later: rows.filter((row) => row.dueAt.getTime() > now), delivering };
  }

  /** Sets the timer for the earliest of rows just stored. */
  private armFor(dueAts: Date[]): void {
    if (dueAts.length > 0) this.arm(Math.min(...dueAts.map((dueAt) => dueAt.getTime())) - Date.now());
  }

  /**
   * Stops every pending delivery (tests and shutdown): the rows stay for the next start. Resolves
   * once a look at the table that was under way has ended, so the database can then be closed.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all([this.running, this.relaying]);
  }

  /**
   * Runs the consumers of these messages together. A delivered one's row goes (`stored`: it has
   * one); a failed one waits for its retry as a row. True when every one was delivered or is kept.
   */
  private async deliver(rows: Row[], stored: boolean): Promise<boolean> {
    const delivered: string[] = [];
    const kept = await allKept(
      rows.map((row) => {
        const running = this.inFlight.get(row.id);
        if (running) return running;
        const delivery = (async () => {
          try {
            await this.consumer?.({ topic: row.topic, body: row.body });
            delivered.push(row.id);
            return true;
          } catch {
            return this.retryLater(row, stored);
          } finally {
            this.inFlight.delete(row.id);
          }
        })();
        this.inFlight.set(row.id, delivery);
        return delivery;
      }),
    );
    if (stored && delivered.length > 0 && !this.closed) {
      await this.database.db
        .delete(queuedMessages)
        .where(inArray(queuedMessages.id, delivered))
        .catch((err: unknown) => logError('queue: delivered messages stay queued and will be delivered again', err));
    }
    return kept;
  }

  /** Schedules a failed delivery's retry, or drops it after the last. False when it is now nowhere. */
  private async retryLater(row: Row, stored: boolean): Promise<boolean> {
    if (this.closed) return stored;
    const attempt = row.attempt + 1;
    const { db } = this.database;
    try {
      if (attempt > (this.options.maxRetries ?? 5)) {
        if (stored) await db.delete(queuedMessages).where(inArray(queuedMessages.id, [row.id]));
        return true;
      }
      const waitMs = this.options.backoffMs?.(attempt) ?? 1000 * 2 ** (attempt - 1);
      const dueAt = new Date(Date.now() + waitMs);
      if (stored) await db.update(queuedMessages).set({ attempt, dueAt }).where(inArray(queuedMessages.id, [row.id]));
      else await db.insert(queuedMessages).values({ ...row, attempt, dueAt }).onConflictDoNothing();
      this.arm(waitMs);
      return true;
    } catch (err) {
      if (stored) {
        logError('queue: a failed delivery could not be rescheduled; it is tried again when the queue next looks', err);
        return true;
      }
      // Held in memory only: whoever handed it over hands it over again (the outbox sweeper does).
      this.forget([row]);
      logError('queue: a failed delivery could not be stored for its retry', err);
      return false;
    }
  }

  /** One timer, for the earliest row due: set sooner when a row comes due sooner. */
  private arm(inMs: number): void {
    if (this.closed || !this.consumer) return;
    const wait = Math.max(0, Math.min(inMs, MAX_WAIT_MS));
    const due = Date.now() + wait;
    if (this.timer !== undefined && due >= this.timerDue) return;
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Number.POSITIVE_INFINITY;
      this.running ??= this.runDue().finally(() => (this.running = undefined));
    }, wait);
    this.timer.unref?.();
  }

  /** Delivers the rows that are due, then waits for the next one. */
  private async runDue(): Promise<void> {
    const { db } = this.database;
    try {
      for (;;) {
        if (this.closed) return;
        const rows = await db
          .select()
          .from(queuedMessages)
          .where(and(eq(queuedMessages.queue, this.name), lte(queuedMessages.dueAt, new Date())))
          .orderBy(asc(queuedMessages.dueAt))
          .limit(BATCH);
        const fresh = rows.filter((row) => !this.inFlight.has(row.id));
        if (fresh.length > 0) await this.deliver(fresh, true);
        if (rows.length < BATCH || fresh.length === 0) break;
      }
      if (this.closed) return;
      const [next] = await db.select({ dueAt: min(queuedMessages.dueAt) }).from(queuedMessages).where(eq(queuedMessages.queue, this.name));
      this.arm(next?.dueAt ? new Date(next.dueAt).getTime() - Date.now() : MAX_WAIT_MS);
    } catch (err) {
      if (this.closed) return;
      logError('queue: reading the due messages failed; trying again shortly', err);
      this.arm(1000);
    }
  }

  /**
   * Messages that could not be stored are taken again when handed over again (the outbox sweeper
   * does, their rows being unrelayed): remembered, they would be taken as already here, and lost.
   */
  private forget(rows: Pick<Row, 'id'>[]): void {
    for (const row of rows) this.seen.delete(row.id);
  }

  private remember(id: string): void {
    this.seen.add(id);
    // Sets keep insertion order: forget the oldest ids, so a long-running server stays bounded.
    if (this.seen.size > MAX_REMEMBERED_IDS) this.seen.delete(this.seen.values().next().value!);
  }
}

/** True when every one of these deliveries ended delivered or kept. */
async function allKept(deliveries: Promise<boolean>[]): Promise<boolean> {
  return (await Promise.all(deliveries)).every(Boolean);
}

/** The rows of `execute`: node-postgres answers a result with `rows`, as PGlite does. */
function resultRows<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
