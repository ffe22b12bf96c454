/**
 * The embedded server's queue keeps every message in the database from before its first attempt
 * until its consumer has succeeded: a message due later is a row, not a timer; a process that
 * stops at any moment leaves what it had not delivered for the next start; a failed delivery
 * waits for its backoff, and a job that fails every attempt is kept as a dead job; servers
 * sharing a database keep apart.
 *
 * One file although long: each guarantee of one queue, over one database, from first attempt to
 * dead job.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessQueue, type InProcessQueueOptions } from '../../src/adapters/embedded/in-process-queue.js';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';
import type { Database } from '../../src/data/database.js';
import { companies, deadJobs, outboxMessages, queuedMessages } from '../../src/data/schema.js';
import type { QueueMessage } from '../../src/ports/queue.js';
import { FAILURE_TEXT_LIMIT } from '../../src/queue/attempts.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { eventually } from '../support/eventually.js';
import { migratedPglite } from '../support/stack.js';

const { expectLogged } = expectErrorLogs();
let database: Database;
beforeAll(async () => {
  database = await openPgliteDatabase(await migratedPglite());
});
afterAll(() => database.close());

const queueName = () => `queue-test-${crypto.randomUUID()}`;
const rowsOf = (name: string) => database.db.select().from(queuedMessages).where(eq(queuedMessages.queue, name));
const deadJobsOf = (ids: string[]) => database.db.select().from(deadJobs).where(inArray(deadJobs.id, ids));
const inMs = (ms: number) => new Date(Date.now() + ms);

function collecting() {
  const delivered: QueueMessage[] = [];
  return { delivered, consumer: async (message: QueueMessage) => void delivered.push(message) };
}

/** A consumer that records each message and waits until `release` (never, if not called), as a delivery under way. */
function holding() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const started: QueueMessage[] = [];
  return {
    started,
    release,
    consumer: async (message: QueueMessage) => {
      started.push(message);
      await held;
    },
  };
}

/** A queue over the shared database, stopped after the test. */
function openQueue(name: string, options: Omit<InProcessQueueOptions, 'name'> = {}, over = database) {
  return new InProcessQueue(over, { name, ...options });
}

describe('the embedded queue', () => {
  it('stores a message due now before its consumer runs, and removes its row once the consumer succeeded', async () => {
    const name = queueName();
    const queue = openQueue(name);
    const { started, release, consumer } = holding();
    queue.consume(consumer);
    try {
      await queue.publish([{ topic: 'email.signing-request', body: { envelope_id: 'env_1' }, dedupeId: `m-${name}` }]);
      // Stored as soon as publish resolves, before any attempt.
      expect((await rowsOf(name)).map((row) => row.id)).toEqual([`m-${name}`]);
      await vi.waitFor(() => expect(started).toEqual([{ topic: 'email.signing-request', body: { envelope_id: 'env_1' } }]), eventually);
      // Under way: still a row, its attempt counted.
      expect(await rowsOf(name)).toEqual([expect.objectContaining({ id: `m-${name}`, attempt: 1, lastError: null })]);
      release();
      await queue.drained();
      expect(await rowsOf(name)).toEqual([]);
      expect(started).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  it('keeps a thousand messages due later as rows, with one timer between them', async () => {
    const name = queueName();
    const queue = openQueue(name);
    queue.consume(collecting().consumer);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const later = Array.from({ length: 1000 }, (_, i) => ({
        topic: 'envelope.remind',
        body: { n: i },
        notBefore: inMs(3_600_000 + i),
        dedupeId: `r-${name}-${i}`,
      }));
      await queue.publish(later.slice(0, 500));
      await queue.publish(later.slice(500));
      expect(timers.mock.calls.length).toBeLessThanOrEqual(1);
      const rows = await rowsOf(name);
      expect(rows).toHaveLength(1000);
      expect(rows.every((row) => row.dueAt.getTime() > Date.now() + 3_500_000)).toBe(true);
    } finally {
      timers.mockRestore();
      await queue.close();
    }
  });

  it('delivers after a restart what the stopped server left, once', async () => {
    const name = queueName();
    const first = openQueue(name);
    const before = collecting();
    first.consume(before.consumer);
    await first.publish([{ topic: 'envelope.expire', body: { envelope_id: 'env_2' }, notBefore: inMs(200), dedupeId: `x-${name}` }]);
    await first.close();

    const second = openQueue(name);
    const after = collecting();
    second.consume(after.consumer);
    try {
      await vi.waitFor(() => expect(after.delivered).toEqual([{ topic: 'envelope.expire', body: { envelope_id: 'env_2' } }]), eventually);
      await second.drained();
      expect(after.delivered).toHaveLength(1);
      expect(before.delivered).toHaveLength(0);
      expect(await rowsOf(name)).toHaveLength(0);
    } finally {
      await second.close();
    }
  });

  it('delivers at the next start a message due now whose delivery was under way when the process stopped', async () => {
    const name = queueName();
    const first = openQueue(name);
    const dying = holding();
    first.consume(dying.consumer);
    await first.publish([{ topic: 'webhook.deliver', body: { event_id: 'evt_1' }, dedupeId: `w-${name}` }]);
    await vi.waitFor(() => expect(dying.started).toHaveLength(1), eventually);
    // The process dies mid-delivery: its consumer never ends.
    await first.close();

    const second = openQueue(name);
    const after = collecting();
    second.consume(after.consumer);
    try {
      await vi.waitFor(() => expect(after.delivered).toEqual([{ topic: 'webhook.deliver', body: { event_id: 'evt_1' } }]), eventually);
      await second.drained();
      expect(await rowsOf(name)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('delivers once a message handed over again while it is still queued', async () => {
    const name = queueName();
    const queue = openQueue(name);
    const { started, release, consumer } = holding();
    queue.consume(consumer);
    try {
      const message = { topic: 'webhook.dispatch', body: { event_id: 'msg_1' }, dedupeId: `d-${name}` };
      await queue.publish([message]);
      await vi.waitFor(() => expect(started).toHaveLength(1), eventually);
      await queue.publish([message]);
      release();
      await queue.drained();
      expect(started).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  it('retries a failed delivery after its backoff, and after the last retry keeps it as a dead job with its last error', async () => {
    const name = queueName();
    expectLogged(/^queue: a webhook\.dispatch job failed its last attempt and is kept as a dead job Error: attempt 3 failed/);
    const queue = openQueue(name, { maxRetries: 2, backoffMs: () => 50 });
    const attempts: number[] = [];
    queue.consume(async () => {
      attempts.push(Date.now());
      throw new Error(`attempt ${attempts.length} failed`);
    });
    try {
      await queue.publish([{ topic: 'webhook.dispatch', body: { event_id: 'evt_dead' }, dedupeId: `f-${name}` }]);
      await vi.waitFor(async () => expect(await deadJobsOf([`f-${name}`])).toHaveLength(1), eventually);
      await queue.drained();
      // The first attempt and exactly maxRetries more: not one past.
      expect(attempts).toHaveLength(3);
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(45);
      expect(await rowsOf(name)).toEqual([]);
      const [dead] = await deadJobsOf([`f-${name}`]);
      expect(dead).toEqual({
        id: `f-${name}`,
        topic: 'webhook.dispatch',
        body: { event_id: 'evt_dead' },
        attempts: 3,
        lastError: 'Error: attempt 3 failed',
        failedAt: expect.any(Date),
      });
    } finally {
      await queue.close();
    }
  });

  it('delivers a message whose last retry succeeds, and keeps no dead job of it', async () => {
    const name = queueName();
    const queue = openQueue(name, { maxRetries: 2, backoffMs: () => 10 });
    let attempts = 0;
    queue.consume(async () => {
      attempts += 1;
      if (attempts < 3) throw new Error('not yet');
    });
    try {
      await queue.publish([{ topic: 'webhook.dispatch', body: {}, dedupeId: `s-${name}` }]);
      await vi.waitFor(async () => expect(attempts).toBe(3), eventually);
      await queue.drained();
      expect(await rowsOf(name)).toEqual([]);
      expect(await deadJobsOf([`s-${name}`])).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it('counts an attempt that outlives its deadline as failed, delivers the others meanwhile, and keeps the job as dead', async () => {
    const name = queueName();
    expectLogged(/^queue: a poison job failed its last attempt and is kept as a dead job DeadlineExceeded/);
    const queue = openQueue(name, { maxRetries: 1, backoffMs: () => 10, attemptDeadlineMs: 100 });
    const delivered: string[] = [];
    let hung = 0;
    queue.consume(async (message) => {
      if (message.topic === 'poison') {
        hung += 1;
        return new Promise(() => {});
      }
      delivered.push(String(message.body.n));
    });
    try {
      await queue.publish([{ topic: 'poison', body: {}, dedupeId: `p-${name}` }]);
      await vi.waitFor(() => expect(hung).toBe(1), eventually);
      await queue.publish([{ topic: 'fine', body: { n: 1 }, dedupeId: `ok1-${name}` }]);
      await vi.waitFor(() => expect(delivered).toEqual(['1']), eventually);
      await vi.waitFor(async () => expect(await deadJobsOf([`p-${name}`])).toHaveLength(1), eventually);
      const [dead] = await deadJobsOf([`p-${name}`]);
      expect(dead).toMatchObject({ topic: 'poison', attempts: 2, lastError: 'DeadlineExceeded: The attempt did not finish within 100 ms.' });
      expect(hung).toBe(2);
      // The queue goes on: a message after the dead one is delivered.
      await queue.publish([{ topic: 'fine', body: { n: 2 }, dedupeId: `ok2-${name}` }]);
      await vi.waitFor(() => expect(delivered).toEqual(['1', '2']), eventually);
      expect(await rowsOf(name)).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it('keeps as dead, without running it again, a job whose every attempt was cut short by the process stopping', async () => {
    const name = queueName();
    const id = `crash-${name}`;
    expectLogged(/^queue: a signing\.finish job's last attempt never ended; it is kept as a dead job The process stopped during the attempt\.$/);
    let runs = 0;
    const crashing = async () => {
      runs += 1;
      await new Promise(() => {});
    };
    const first = openQueue(name, { maxRetries: 1 });
    first.consume(crashing);
    await first.publish([{ topic: 'signing.finish', body: { envelope_id: 'env_crash' }, dedupeId: id }]);
    await vi.waitFor(() => expect(runs).toBe(1), eventually);
    await first.close();
    const second = openQueue(name, { maxRetries: 1 });
    second.consume(crashing);
    await vi.waitFor(() => expect(runs).toBe(2), eventually);
    await second.close();

    const third = openQueue(name, { maxRetries: 1 });
    const { delivered, consumer } = collecting();
    third.consume(consumer);
    try {
      await vi.waitFor(async () => expect(await deadJobsOf([id])).toHaveLength(1), eventually);
      await third.drained();
      expect(delivered).toEqual([]);
      expect(runs).toBe(2);
      expect(await deadJobsOf([id])).toEqual([expect.objectContaining({ attempts: 2, lastError: 'The process stopped during the attempt.' })]);
      expect(await rowsOf(name)).toEqual([]);
    } finally {
      await third.close();
    }
  });

  it('keeps the last error of a dead job within its bound', async () => {
    const name = queueName();
    expectLogged(/^queue: a long\.error job failed its last attempt/);
    const queue = openQueue(name, { maxRetries: 0 });
    queue.consume(async () => {
      throw new Error('x'.repeat(5000));
    });
    try {
      await queue.publish([{ topic: 'long.error', body: {}, dedupeId: `l-${name}` }]);
      await vi.waitFor(async () => expect(await deadJobsOf([`l-${name}`])).toHaveLength(1), eventually);
      const [dead] = await deadJobsOf([`l-${name}`]);
      expect(dead!.lastError).toHaveLength(FAILURE_TEXT_LIMIT);
      expect(dead!.lastError.startsWith('Error: xxx')).toBe(true);
      expect(dead!.attempts).toBe(1);
    } finally {
      await queue.close();
    }
  });

  /** Outbox rows as a committed change leaves them: unrelayed. */
  async function outboxRows(name: string, messages: (QueueMessage & { dedupeId: string })[]) {
    const [company] = await database.db.insert(companies).values({ name, apiSignatureRequestsPerPeriod: 10 }).returning({ id: companies.id });
    await database.db.insert(outboxMessages).values(
      messages.map((message) => ({
        id: message.dedupeId,
        companyId: company!.id,
        topic: message.topic,
        body: message.body,
        dueAt: message.notBefore ?? null,
      })),
    );
    return messages;
  }
  const relayedAtOf = async (ids: string[]) =>
    (await database.db.select({ id: outboxMessages.id, relayedAt: outboxMessages.relayedAt }).from(outboxMessages).where(inArray(outboxMessages.id, ids)))
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((row) => row.relayedAt);

  it('relays the outbox of many concurrent requests: every row marked, each timer stored, each message due now delivered', async () => {
    const name = queueName();
    const queue = openQueue(name);
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      const requests = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          outboxRows(`${name}-${i}`, [
            { topic: 'email.signing-request', body: { n: i }, dedupeId: `${name}.${i}.mail` },
            { topic: 'envelope.remind', body: { n: i }, notBefore: inMs(3_600_000), dedupeId: `${name}.${i}.remind` },
            { topic: 'envelope.expire', body: { n: i }, notBefore: inMs(7_200_000), dedupeId: `${name}.${i}.expire` },
          ]),
        ),
      );
      const relayedAt = new Date();
      await Promise.all(requests.map((messages) => queue.relayFromOutbox(messages, { ids: messages.map((m) => m.dedupeId), relayedAt })));
      const ids = requests.flat().map((message) => message.dedupeId);
      expect(await relayedAtOf(ids)).toEqual(ids.map(() => relayedAt));
      await queue.drained();
      expect(delivered).toHaveLength(12);
      const stored = await rowsOf(name);
      expect(stored.map((row) => row.id).sort()).toEqual(ids.filter((id) => !id.endsWith('.mail')).sort());
      expect(stored.find((row) => row.id === `${name}.3.expire`)).toMatchObject({ topic: 'envelope.expire', body: { n: 3 }, attempt: 0 });
    } finally {
      await queue.close();
    }

    // A restarted server still holds every timer the relays stored.
    const restarted = openQueue(name);
    expect(await rowsOf(name)).toHaveLength(24);
    await restarted.close();
  });

  it('marks an outbox row relayed as its message is stored, and the next start delivers a message due now whose delivery the stop cut short', async () => {
    const name = queueName();
    const first = openQueue(name);
    const dying = holding();
    first.consume(dying.consumer);
    const ids = [`${name}.mail`, `${name}.remind`];
    const messages = await outboxRows(name, [
      { topic: 'email.signing-request', body: { n: 1 }, dedupeId: ids[0]! },
      { topic: 'envelope.remind', body: { n: 1 }, notBefore: inMs(3_600_000), dedupeId: ids[1]! },
    ]);
    const relayedAt = new Date();
    await first.relayFromOutbox(messages, { ids, relayedAt });
    // Marked and stored together, whatever the delivery does.
    expect(await relayedAtOf(ids)).toEqual([relayedAt, relayedAt]);
    expect((await rowsOf(name)).map((row) => row.id).sort()).toEqual([...ids].sort());
    await vi.waitFor(() => expect(dying.started).toHaveLength(1), eventually);
    await first.close();

    const second = openQueue(name);
    const { delivered, consumer } = collecting();
    second.consume(consumer);
    try {
      await vi.waitFor(() => expect(delivered).toEqual([{ topic: 'email.signing-request', body: { n: 1 } }]), eventually);
      await second.drained();
      expect((await rowsOf(name)).map((row) => row.id)).toEqual([ids[1]]);
    } finally {
      await second.close();
    }
  });

  it('marks a row relayed twice once, and delivers its message once', async () => {
    const name = queueName();
    const queue = openQueue(name);
    const { started, release, consumer } = holding();
    queue.consume(consumer);
    try {
      const messages = await outboxRows(name, [{ topic: 'webhook.dispatch', body: { event_id: name }, dedupeId: `${name}.event` }]);
      const first = new Date(Date.now() - 1000);
      await queue.relayFromOutbox(messages, { ids: [`${name}.event`], relayedAt: first });
      await vi.waitFor(() => expect(started).toHaveLength(1), eventually);
      // The sweeper hands it over again while its first delivery is under way.
      await queue.relayFromOutbox(messages, { ids: [`${name}.event`], relayedAt: new Date() });
      expect(await relayedAtOf([`${name}.event`])).toEqual([first]);
      release();
      await queue.drained();
      expect(started).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  /**
   * The database, but its next call of `method` (`execute`: the relay's statement; `insert`: a
   * publish) fails when awaited, whatever is chained onto it first (`.values(…).returning(…)`).
   */
  function failingOnce(method: 'execute' | 'insert'): Database {
    let failed = false;
    const dropped: unknown = new Proxy(() => {}, {
      get: (_, key) => (key === 'then' ? (_: unknown, reject: (err: Error) => void) => reject(new Error('the connection dropped')) : () => dropped),
      apply: () => dropped,
    });
    const db = new Proxy(database.db, {
      get(target, key) {
        if (key === method && !failed) {
          failed = true;
          return dropped;
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { ...database, db };
  }

  it('leaves outbox rows unrelayed when their messages could not be stored, and stores and marks them when handed over again', async () => {
    const name = queueName();
    const queue = openQueue(name, {}, failingOnce('execute'));
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      const ids = [`${name}.mail`, `${name}.remind`];
      const messages = await outboxRows(name, [
        { topic: 'email.signing-request', body: { n: 1 }, dedupeId: ids[0]! },
        { topic: 'envelope.remind', body: { n: 1 }, notBefore: inMs(3_600_000), dedupeId: ids[1]! },
      ]);
      await expect(queue.relayFromOutbox(messages, { ids, relayedAt: new Date() })).rejects.toThrow(/connection dropped/);
      expect(await relayedAtOf(ids)).toEqual([null, null]);
      expect(await rowsOf(name)).toHaveLength(0);
      await queue.drained();
      expect(delivered).toEqual([]);
      // The sweeper hands both over again: the e-mail goes out, the reminder is stored, both marked.
      const relayedAt = new Date();
      await queue.relayFromOutbox(messages, { ids, relayedAt });
      expect(await relayedAtOf(ids)).toEqual([relayedAt, relayedAt]);
      await queue.drained();
      expect(delivered).toEqual([{ topic: 'email.signing-request', body: { n: 1 } }]);
      expect((await rowsOf(name)).map((row) => row.id)).toEqual([ids[1]]);
    } finally {
      await queue.close();
    }
  });

  it('refuses a publish whose messages could not be stored, delivers none of it, and stores it when published again', async () => {
    const name = queueName();
    const queue = openQueue(name, {}, failingOnce('insert'));
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      const messages = [
        { topic: 'email.signing-request', body: { n: 1 }, dedupeId: `${name}.mail` },
        { topic: 'envelope.expire', body: { n: 1 }, notBefore: inMs(3_600_000), dedupeId: `${name}.expire` },
      ];
      await expect(queue.publish(messages)).rejects.toThrow(/connection dropped/);
      await queue.drained();
      expect(delivered).toEqual([]);
      await queue.publish(messages);
      await queue.drained();
      expect(delivered).toEqual([{ topic: 'email.signing-request', body: { n: 1 } }]);
      expect((await rowsOf(name)).map((row) => row.id)).toEqual([`${name}.expire`]);
    } finally {
      await queue.close();
    }
  });

  it("leaves another server's messages alone", async () => {
    const [mine, theirs] = [queueName(), queueName()];
    const other = openQueue(theirs);
    await other.publish([{ topic: 'envelope.remind', body: {}, dedupeId: `o-${theirs}` }]);
    await other.close();
    const queue = openQueue(mine);
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      await queue.drained();
      expect(delivered).toHaveLength(0);
      expect(await rowsOf(theirs)).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });
});
