/**
 * The embedded server's queue keeps its messages in the database: a message due later is a row,
 * not a timer; a restarted server delivers what the previous one left; a retried delivery waits
 * for its backoff and stops after the last retry; servers sharing a database keep apart.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessQueue } from '../../src/adapters/embedded/in-process-queue.js';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';
import type { Database } from '../../src/data/database.js';
import { companies, outboxMessages, queuedMessages } from '../../src/data/schema.js';
import type { QueueMessage } from '../../src/ports/queue.js';
import { migratedPglite } from '../support/stack.js';

let database: Database;
beforeAll(async () => {
  database = await openPgliteDatabase(await migratedPglite());
});
afterAll(() => database.close());

const queueName = () => `queue-test-${crypto.randomUUID()}`;
const rowsOf = (name: string) => database.db.select().from(queuedMessages).where(eq(queuedMessages.queue, name));
const inMs = (ms: number) => new Date(Date.now() + ms);

function collecting() {
  const delivered: QueueMessage[] = [];
  return { delivered, consumer: async (message: QueueMessage) => void delivered.push(message) };
}

describe('the embedded queue', () => {
  it('delivers a message due now at once, and keeps no row of it', async () => {
    const name = queueName();
    const queue = new InProcessQueue(database, { name });
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      await queue.publish([{ topic: 'email.signing-request', body: { envelope_id: 'env_1' }, dedupeId: `m-${name}` }]);
      await vi.waitFor(() => expect(delivered).toEqual([{ topic: 'email.signing-request', body: { envelope_id: 'env_1' } }]), { timeout: 1000 });
      await vi.waitFor(async () => expect(await rowsOf(name)).toHaveLength(0));
    } finally {
      await queue.close();
    }
  });

  it('keeps a thousand messages due later as rows, with one timer between them', async () => {
    const name = queueName();
    const queue = new InProcessQueue(database, { name });
    queue.consume(collecting().consumer);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const later = Array.from({ length: 1000 }, (_, i) => ({ topic: 'envelope.remind', body: { n: i }, notBefore: inMs(3_600_000 + i), dedupeId: `r-${name}-${i}` }));
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
    const first = new InProcessQueue(database, { name });
    const before = collecting();
    first.consume(before.consumer);
    await first.publish([{ topic: 'envelope.expire', body: { envelope_id: 'env_2' }, notBefore: inMs(200), dedupeId: `x-${name}` }]);
    await first.close();

    const second = new InProcessQueue(database, { name });
    const after = collecting();
    second.consume(after.consumer);
    try {
      await vi.waitFor(() => expect(after.delivered).toEqual([{ topic: 'envelope.expire', body: { envelope_id: 'env_2' } }]), { timeout: 3000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(after.delivered).toHaveLength(1);
      expect(before.delivered).toHaveLength(0);
      expect(await rowsOf(name)).toHaveLength(0);
    } finally {
      await second.close();
    }
  });

  it('delivers a message handed over twice once', async () => {
    const name = queueName();
    const queue = new InProcessQueue(database, { name });
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      const message = { topic: 'webhook.dispatch', body: { event_id: 'msg_1' }, dedupeId: `d-${name}` };
      await queue.publish([message]);
      await queue.publish([message]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(delivered).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  it('retries a failed delivery after its backoff, and drops it after the last retry', async () => {
    const name = queueName();
    const queue = new InProcessQueue(database, { name, maxRetries: 2, backoffMs: () => 50 });
    const attempts: number[] = [];
    queue.consume(async () => {
      attempts.push(Date.now());
      throw new Error('the consumer failed');
    });
    try {
      await queue.publish([{ topic: 'webhook.dispatch', body: {}, dedupeId: `f-${name}` }]);
      await vi.waitFor(() => expect(attempts).toHaveLength(3), { timeout: 3000 });
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(45);
      await vi.waitFor(async () => expect(await rowsOf(name)).toHaveLength(0));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(attempts).toHaveLength(3);
    } finally {
      await queue.close();
    }
  });

  /** Outbox rows as a committed change leaves them: unrelayed. */
  async function outboxRows(name: string, messages: (QueueMessage & { dedupeId: string })[]) {
    const [company] = await database.db.insert(companies).values({ name, apiSignatureRequestsPerPeriod: 10 }).returning({ id: companies.id });
    await database.db.insert(outboxMessages).values(
      messages.map((message) => ({ id: message.dedupeId, companyId: company!.id, topic: message.topic, body: message.body, dueAt: message.notBefore ?? null })),
    );
    return messages;
  }
  const relayedAtOf = async (ids: string[]) =>
    (await database.db.select({ relayedAt: outboxMessages.relayedAt }).from(outboxMessages).where(inArray(outboxMessages.id, ids))).map((row) => row.relayedAt);

  it('relays the outbox of many concurrent requests: every row marked, each timer stored, each message due now delivered', async () => {
    const name = queueName();
    const queue = new InProcessQueue(database, { name });
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
      const stored = await rowsOf(name);
      expect(stored.map((row) => row.id).sort()).toEqual(ids.filter((id) => !id.endsWith('.mail')).sort());
      expect(stored.find((row) => row.id === `${name}.3.expire`)).toMatchObject({ topic: 'envelope.expire', body: { n: 3 } });
      await vi.waitFor(() => expect(delivered).toHaveLength(12));
    } finally {
      await queue.close();
    }

    // A restarted server still holds every timer the relays stored.
    const restarted = new InProcessQueue(database, { name });
    expect(await rowsOf(name)).toHaveLength(24);
    await restarted.close();
  });

  it('marks a row relayed twice once, and delivers its message once', async () => {
    const name = queueName();
    const queue = new InProcessQueue(database, { name });
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      const messages = await outboxRows(name, [{ topic: 'webhook.dispatch', body: { event_id: name }, dedupeId: `${name}.event` }]);
      const first = new Date(Date.now() - 1000);
      await queue.relayFromOutbox(messages, { ids: [`${name}.event`], relayedAt: first });
      await queue.relayFromOutbox(messages, { ids: [`${name}.event`], relayedAt: new Date() });
      expect(await relayedAtOf([`${name}.event`])).toEqual([first]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(delivered).toHaveLength(1);
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

  it('stores a timer handed over again after its first relay failed (the sweeper), instead of taking it as done', async () => {
    const name = queueName();
    const queue = new InProcessQueue(failingOnce('execute'), { name });
    queue.consume(collecting().consumer);
    try {
      const ids = [`${name}.remind`];
      const messages = await outboxRows(name, [{ topic: 'envelope.remind', body: { n: 1 }, notBefore: inMs(3_600_000), dedupeId: ids[0]! }]);
      await expect(queue.relayFromOutbox(messages, { ids, relayedAt: new Date() })).rejects.toThrow(/connection dropped/);
      expect(await relayedAtOf(ids)).toEqual([null]);
      expect(await rowsOf(name)).toHaveLength(0);
      const relayedAt = new Date();
      await queue.relayFromOutbox(messages, { ids, relayedAt });
      expect((await rowsOf(name)).map((row) => row.id)).toEqual(ids);
      expect(await relayedAtOf(ids)).toEqual([relayedAt]);
    } finally {
      await queue.close();
    }
  });

  it('stores a message due later published again after its first store failed', async () => {
    const name = queueName();
    const queue = new InProcessQueue(failingOnce('insert'), { name });
    queue.consume(collecting().consumer);
    try {
      const message = { topic: 'envelope.expire', body: { n: 1 }, notBefore: inMs(3_600_000), dedupeId: `${name}.expire` };
      await expect(queue.publish([message])).rejects.toThrow(/connection dropped/);
      await queue.publish([message]);
      expect((await rowsOf(name)).map((row) => row.id)).toEqual([`${name}.expire`]);
    } finally {
      await queue.close();
    }
  });

  it('delivers a message handed over again after its delivery failed and its retry could not be stored', async () => {
    const name = queueName();
    const queue = new InProcessQueue(failingOnce('insert'), { name });
    const attempts: string[] = [];
    queue.consume(async (message) => {
      attempts.push(message.topic);
      if (attempts.length === 1) throw new Error('the consumer failed');
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const message = { topic: 'webhook.dispatch', body: { n: 1 }, dedupeId: `${name}.event` };
      await queue.publish([message]);
      await vi.waitFor(() => expect(logged).toHaveBeenCalled());
      expect(await rowsOf(name)).toHaveLength(0);
      await queue.publish([message]);
      await vi.waitFor(() => expect(attempts).toHaveLength(2));
    } finally {
      logged.mockRestore();
      await queue.close();
    }
  });

  it('leaves unrelayed the rows of a relay whose message due now failed and could not be stored for its retry', async () => {
    const name = queueName();
    const queue = new InProcessQueue(failingOnce('insert'), { name });
    const attempts: string[] = [];
    queue.consume(async (message) => {
      attempts.push(message.topic);
      if (attempts.length === 1) throw new Error('the consumer failed');
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const ids = [`${name}.mail`, `${name}.remind`];
      const messages = await outboxRows(name, [
        { topic: 'email.signing-request', body: { n: 1 }, dedupeId: ids[0]! },
        { topic: 'envelope.remind', body: { n: 1 }, notBefore: inMs(3_600_000), dedupeId: ids[1]! },
      ]);
      await expect(queue.relayFromOutbox(messages, { ids, relayedAt: new Date() })).rejects.toThrow(/neither delivered nor stored/);
      expect(await relayedAtOf(ids)).toEqual([null, null]);
      expect(await rowsOf(name)).toHaveLength(0);
      // The sweeper hands both over again: the e-mail goes out, the reminder is stored, both marked.
      const relayedAt = new Date();
      await queue.relayFromOutbox(messages, { ids, relayedAt });
      expect(attempts).toEqual(['email.signing-request', 'email.signing-request']);
      expect((await rowsOf(name)).map((row) => row.id)).toEqual([ids[1]]);
      expect(await relayedAtOf(ids)).toEqual([relayedAt, relayedAt]);
    } finally {
      logged.mockRestore();
      await queue.close();
    }
  });

  /**
   * A relay of a message due now and a timer, whose consumer waits until `release`, then ends as
   * `outcome` says: the relay is under way, and the rows of its outbox not yet marked.
   */
  async function heldRelay(outcome: 'delivered' | 'failed') {
    const name = queueName();
    const queue = new InProcessQueue(database, { name });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const delivered: string[] = [];
    queue.consume(async (message) => {
      await held;
      if (outcome === 'failed') throw new Error('cut short by the stop');
      delivered.push(message.topic);
    });
    const ids = [`${name}.mail`, `${name}.remind`];
    const messages = await outboxRows(name, [
      { topic: 'email.signing-request', body: { n: 1 }, dedupeId: ids[0]! },
      { topic: 'envelope.remind', body: { n: 1 }, notBefore: inMs(3_600_000), dedupeId: ids[1]! },
    ]);
    const relayedAt = new Date();
    const relay = queue.relayFromOutbox(messages, { ids, relayedAt });
    return { name, queue, release, delivered, ids, relayedAt, relay };
  }

  it('marks an outbox row relayed only once its message due now is delivered', async () => {
    const { name, queue, release, delivered, ids, relayedAt, relay } = await heldRelay('delivered');
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      // Still in memory only: a server stopping now would leave both rows for the sweeper.
      expect(await relayedAtOf(ids)).toEqual([null, null]);
      expect(await rowsOf(name)).toHaveLength(0);
      release();
      await relay;
      expect(delivered).toEqual(['email.signing-request']);
      expect(await relayedAtOf(ids)).toEqual([relayedAt, relayedAt]);
      expect((await rowsOf(name)).map((row) => row.id)).toEqual([`${name}.remind`]);
    } finally {
      await queue.close();
    }
  });

  it('marks a row handed over again during its delivery (the sweeper) only once that delivery ends', async () => {
    const { queue, release, delivered, ids, relayedAt, relay } = await heldRelay('delivered');
    try {
      const [mail] = await database.db.select().from(outboxMessages).where(inArray(outboxMessages.id, [ids[0]!]));
      const againAt = new Date(relayedAt.getTime() + 1000);
      const again = queue.relayFromOutbox([{ topic: mail!.topic, body: mail!.body, dedupeId: mail!.id }], { ids: [ids[0]!], relayedAt: againAt });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await relayedAtOf([ids[0]!])).toEqual([null]);
      release();
      await Promise.all([relay, again]);
      expect(delivered).toEqual(['email.signing-request']);
      // Both relays end with that one delivery and may be written in one statement, which marks its
      // rows at the time of whichever relay it holds first: either time, never none.
      const [marked] = await relayedAtOf([ids[0]!]);
      expect([relayedAt.getTime(), againAt.getTime()]).toContain(marked?.getTime());
    } finally {
      await queue.close();
    }
  });

  it('leaves unrelayed the rows of a relay whose delivery the stopping server cut short', async () => {
    const { name, queue, release, ids, relay } = await heldRelay('failed');
    const closed = queue.close();
    release();
    await expect(relay).rejects.toThrow(/closed/);
    await closed;
    expect(await relayedAtOf(ids)).toEqual([null, null]);
    expect(await rowsOf(name)).toHaveLength(0);
  });

  it("leaves another server's messages alone", async () => {
    const [mine, theirs] = [queueName(), queueName()];
    const other = new InProcessQueue(database, { name: theirs });
    await other.publish([{ topic: 'envelope.remind', body: {}, notBefore: inMs(100), dedupeId: `o-${theirs}` }]);
    await other.close();
    const queue = new InProcessQueue(database, { name: mine });
    const { delivered, consumer } = collecting();
    queue.consume(consumer);
    try {
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(delivered).toHaveLength(0);
      expect(await rowsOf(theirs)).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });
});
