import type { Database } from '../../data/database.js';
import { randomBase62 } from '../../lib/crypto.js';
import { logError } from '../../lib/log-error.js';
import type { Queue, QueueMessage } from '../../ports/queue.js';
import { withinDeadline } from '../../lib/deadline.js';
import { ATTEMPT_DEADLINE_MS, failureText, QUEUE_RETRIES } from '../../queue/attempts.js';
import { type NewQueuedRow, QueueTable, type QueuedRow } from './queue-table.js';

/** How long the queue waits at most before it looks at its table again (rows another process wrote). */
const MAX_WAIT_MS = 60_000;
/** Deliveries under way at once; the rows beyond wait for one of them to end. */
const MAX_IN_FLIGHT = 100;
/** The failure recorded for a job whose last attempt was cut short by a stopped process. */
const STOPPED_DURING_ATTEMPT = 'The process stopped during the attempt.';
/** The queue of the embedded server: the same name from one start to the next. */
export const DEFAULT_QUEUE = 'embedded';

export type Consumer = (message: QueueMessage) => Promise<void>;

export type InProcessQueueOptions = {
  name?: string;
  /** Retries after the first attempt; a job that fails them all is recorded as dead. */
  maxRetries?: number;
  backoffMs?: (attempt: number) => number;
  /** How long one attempt may run before it counts as failed. */
  attemptDeadlineMs?: number;
};

/**
 * The embedded queue. Every message, due now or later, is a row of `queued_messages` before its
 * consumer first runs, and its row goes only once a consumer has succeeded: a process that stops
 * at any moment leaves every undelivered message in the database, and the next start delivers it
 * (consumers are safe to run twice). One timer waits for the earliest row, so a message due in days
 * holds no timer. Rows are delivered from the table only; the ones under way are kept apart so that
 * none runs twice at once. A failed attempt waits for its backoff; after the last retry the message
 * moves to `dead_jobs` instead of being tried for ever.
 */
export class InProcessQueue implements Queue {
  private readonly table: QueueTable;
  private consumer: Consumer | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  /** The look at the table under way, and whether another was asked for meanwhile. */
  private running: Promise<void> | undefined;
  private lookAgain = false;
  /** The last look stopped with rows left because too many were under way. */
  private full = false;
  /** Rows being delivered now, so a look at the table does not take them a second time. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Rows of succeeded messages waiting to be removed, all in the next statement. */
  private removals: { id: string; done: () => void }[] = [];
  private removing: Promise<void> | undefined;
  /** Statements whose answers the queue still acts on: a close waits for them. */
  private readonly writes = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    database: Database,
    private readonly options: InProcessQueueOptions = {},
  ) {
    this.table = new QueueTable(database, options.name ?? DEFAULT_QUEUE);
  }

  /** The app registers what to do with each topic once it is built; rows a previous run left are then delivered. */
  consume(consumer: Consumer): void {
    this.consumer = consumer;
    this.arm(0);
  }

  /** Resolves once the messages are stored; those due now are then delivered from their rows. */
  async publish(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const rows = this.rowsOf(messages);
    await this.table.store(rows);
    this.armFor(rows);
  }

  /**
   * The relay of committed outbox rows (outbox.ts): storing the messages and marking the outbox
   * rows relayed is one statement, so a row is marked only once its messages are stored. A message
   * handed over again while still queued (the sweeper, a repeated relay) is stored once.
   */
  async relayFromOutbox(messages: QueueMessage[], outbox: { ids: string[]; relayedAt: Date }): Promise<void> {
    const rows = this.rowsOf(messages);
    await this.table.storeRelayed(rows, outbox);
    this.armFor(rows);
  }

  /**
   * Resolves once nothing is being delivered and no row is due: what was handed over by then has
   * run (or waits for a retry). For whoever must know that the queue has settled, such as tests.
   */
  async drained(): Promise<void> {
    while (!this.closed && this.consumer) {
      const busy = [...this.inFlight.values(), ...this.writes, this.running, this.removing];
      if (busy.some(Boolean)) {
        await Promise.allSettled(busy);
        continue;
      }
      const next = await this.table.nextDue([]);
      if (!next || next.getTime() > Date.now()) {
        if (this.inFlight.size === 0 && !this.running) return;
        continue;
      }
      this.wake();
    }
  }

  /**
   * Stops looking at the table and delivering (tests and shutdown): every row stays for the next
   * start, including those whose deliveries are under way, which are left to end on their own.
   * Resolves once the statements under way have ended, so the database can then be closed.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.allSettled([this.running, this.removing, ...this.writes]);
  }

  private rowsOf(messages: QueueMessage[]): NewQueuedRow[] {
    const now = Date.now();
    return messages.map((message) => ({
      id: message.dedupeId ?? `qm_${randomBase62(22)}`,
      topic: message.topic,
      body: message.body,
      dueAt: new Date(Math.max(now, message.notBefore?.getTime() ?? now)),
      createdAt: new Date(now),
    }));
  }

  /** Sets the timer for the earliest of rows just stored. */
  private armFor(rows: NewQueuedRow[]): void {
    if (rows.length > 0) this.arm(Math.min(...rows.map((row) => row.dueAt.getTime())) - Date.now());
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
      this.wake();
    }, wait);
    this.timer.unref?.();
  }

  /** Looks at the table now, or once more after the look under way: rows may have come since it read. */
  private wake(): void {
    if (this.closed || !this.consumer) return;
    if (this.running) {
      this.lookAgain = true;
      return;
    }
    this.running = this.runDue().finally(() => {
      this.running = undefined;
      if (this.lookAgain) {
        this.lookAgain = false;
        this.wake();
      }
    });
  }

  /** Starts the deliveries of the rows that are due, then waits for the next one. */
  private async runDue(): Promise<void> {
    try {
      for (;;) {
        if (this.closed) return;
        const room = MAX_IN_FLIGHT - this.inFlight.size;
        if (room <= 0) {
          this.full = true;
          return;
        }
        const rows = await this.table.claimDue(new Date(), [...this.inFlight.keys()], room);
        if (this.closed) return;
        for (const row of rows) this.attempt(row);
        if (rows.length < room) break;
      }
      const next = await this.table.nextDue([...this.inFlight.keys()]);
      this.arm(next ? next.getTime() - Date.now() : MAX_WAIT_MS);
    } catch (err) {
      if (this.closed) return;
      logError('queue: reading the due messages failed; trying again shortly', err);
      this.arm(1000);
    }
  }

  /** One attempt of a claimed row, whose count already includes it. */
  private attempt(row: QueuedRow): void {
    const maxAttempts = (this.options.maxRetries ?? QUEUE_RETRIES) + 1;
    const delivery = (async () => {
      try {
        if (row.attempt > maxAttempts) {
          // Its last attempt started and never ended: the process stopped during it.
          logError(`queue: a ${row.topic} job's last attempt never ended; it is kept as a dead job`, STOPPED_DURING_ATTEMPT);
          return await this.write(this.table.bury(row.id, maxAttempts, STOPPED_DURING_ATTEMPT, new Date()));
        }
        let failure: unknown;
        try {
          await withinDeadline(this.consumer!({ topic: row.topic, body: row.body }), this.options.attemptDeadlineMs ?? ATTEMPT_DEADLINE_MS, 'The attempt');
        } catch (err) {
          failure = err ?? new Error('The consumer failed.');
        }
        // Stopping: the row stays as it is, and the next start delivers it again.
        if (this.closed) return;
        if (failure === undefined) return await this.removed(row.id);
        if (row.attempt >= maxAttempts) {
          logError(`queue: a ${row.topic} job failed its last attempt and is kept as a dead job`, failure);
          return await this.write(this.table.bury(row.id, row.attempt, failureText(failure), new Date()));
        }
        const waitMs = this.options.backoffMs?.(row.attempt) ?? 1000 * 2 ** (row.attempt - 1);
        await this.write(this.table.retryAt(row.id, new Date(Date.now() + waitMs), failureText(failure)));
        this.arm(waitMs);
      } catch (err) {
        // The row stays as it was: due, so it is tried again when the queue next looks.
        if (!this.closed) logError('queue: the outcome of a delivery could not be stored; it is delivered again', err);
        this.arm(1000);
      } finally {
        this.inFlight.delete(row.id);
        if (this.full) {
          this.full = false;
          this.wake();
        }
      }
    })();
    this.inFlight.set(row.id, delivery);
  }

  /** Removes the row of a succeeded message, with those of others that succeeded meanwhile. */
  private removed(id: string): Promise<void> {
    return new Promise((done) => {
      this.removals.push({ id, done });
      this.removing ??= this.removeAll();
    });
  }

  private async removeAll(): Promise<void> {
    while (this.removals.length > 0) {
      const batch = this.removals;
      this.removals = [];
      // Not removed, a row is delivered again: at least once.
      await this.table.remove(batch.map((removal) => removal.id)).catch((err: unknown) => {
        if (!this.closed) logError('queue: delivered messages stay queued and will be delivered again', err);
      });
      for (const removal of batch) removal.done();
    }
    this.removing = undefined;
  }

  private async write(statement: Promise<void>): Promise<void> {
    this.writes.add(statement);
    try {
      await statement;
    } finally {
      this.writes.delete(statement);
    }
  }
}
