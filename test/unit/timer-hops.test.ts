import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/ports/clock.js';
import type { Queue, QueueMessage } from '../../src/ports/queue.js';
import { arrival, HoppingQueue } from '../../src/queue/timer-hops.js';

const DAY = 24 * 3600 * 1000;

/** A queue that records what it is given, and a loop that delivers each message when it is due. */
function harness(maxDelayDays = 7) {
  const clock = new ManualClock(new Date('2026-11-01T00:00:00.000Z'));
  const published: QueueMessage[] = [];
  const recorder: Queue = { publish: async (messages) => void published.push(...messages) };
  const queue = new HoppingQueue(recorder, clock, maxDelayDays * DAY);
  /** Delivers the last published message at its time, as the queue would; answers what the consumer got, if anything. */
  async function deliverLast(): Promise<QueueMessage | undefined> {
    const message = published.at(-1)!;
    if (message.notBefore) clock.set(message.notBefore);
    const next = arrival(message, clock);
    if ('rearm' in next) {
      await queue.publish([next.rearm]);
      return undefined;
    }
    return next.deliver;
  }
  return { clock, published, queue, deliverLast };
}

describe('timers longer than the queue can hold', () => {
  it('schedules a 30-day expiry in hops of at most 7 days, each armed again until due, then delivers it once', async () => {
    const { clock, published, queue, deliverLast } = harness(7);
    const due = new Date(clock.now().getTime() + 30 * DAY);
    await queue.publish([{ topic: 'envelope.expire', body: { envelope_id: 'env_1' }, notBefore: due, dedupeId: 'env_1.expire' }]);
    let delivered: QueueMessage | undefined;
    for (let hop = 0; hop < 10 && !delivered; hop++) delivered = await deliverLast();
    expect([delivered?.topic, delivered?.body]).toEqual(['envelope.expire', { envelope_id: 'env_1' }]);
    expect(clock.now().toISOString()).toBe(due.toISOString());
    // Days 7, 14, 21, 28, then the last leg to day 30.
    expect(published.map((message) => (message.notBefore!.getTime() - new Date('2026-11-01T00:00:00.000Z').getTime()) / DAY)).toEqual([7, 14, 21, 28, 30]);
    for (let i = 1; i < published.length; i++) expect(published[i]!.notBefore!.getTime() - published[i - 1]!.notBefore!.getTime()).toBeLessThanOrEqual(7 * DAY);
    expect(published.map((message) => message.dedupeId)).toEqual([
      'env_1.expire.hop1',
      'env_1.expire.hop2',
      'env_1.expire.hop3',
      'env_1.expire.hop4',
      'env_1.expire.hop5',
    ]);
  });

  it('leaves a message within the longest delay, or without one, as it is', async () => {
    const { clock, published, queue } = harness(7);
    const soon = { topic: 'envelope.remind', body: { envelope_id: 'env_2' }, notBefore: new Date(clock.now().getTime() + 7 * DAY), dedupeId: 'r' };
    const now = { topic: 'webhook.dispatch', body: { event_id: 'msg_1' }, dedupeId: 'msg_1' };
    await queue.publish([soon, now]);
    expect(published).toEqual([soon, now]);
  });

  it('delivers a hop that arrives late at once, and re-arms one that arrives early by a retry', async () => {
    const { clock, published, queue } = harness(7);
    await queue.publish([{ topic: 't', body: { id: 1 }, notBefore: new Date(clock.now().getTime() + 10 * DAY), dedupeId: 'x' }]);
    const hop = published[0]!;
    clock.advance(11 * DAY);
    expect(arrival(hop, clock)).toEqual({ deliver: { topic: 't', body: { id: 1 } } });
  });
});
