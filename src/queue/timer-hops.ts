/**
 * Timers further out than the queue can hold a message. QStash's free plan delays a message by at
 * most 7 days, while an envelope may expire in 30: such a message is published to arrive after
 * the longest allowed delay, carrying its real due time, and each early arrival is armed again
 * for the next hop until it is due. Only then does its consumer see it, without the hop fields.
 */
import type { Clock } from '../ports/clock.js';
import type { Queue, QueueMessage } from '../ports/queue.js';

export const DEFAULT_MAX_QUEUE_DELAY_MS = 7 * 24 * 3600 * 1000;

/** The fields a hop adds to a message's body. */
type HopFields = { hop_due_at: string; hop: number; hop_of?: string };

/** A queue that splits long delays into hops no longer than `maxDelayMs`. */
export class HoppingQueue implements Queue {
  readonly relayFromOutbox?: Queue['relayFromOutbox'];

  constructor(
    private readonly inner: Queue,
    private readonly clock: Clock,
    private readonly maxDelayMs = DEFAULT_MAX_QUEUE_DELAY_MS,
  ) {
    // Offered only when the inner queue offers it, so that the relay knows which way to go.
    const relay = inner.relayFromOutbox?.bind(inner);
    if (relay) this.relayFromOutbox = (messages, outbox) => relay(this.hops(messages), outbox);
  }

  publish(messages: QueueMessage[]): Promise<void> {
    return this.inner.publish(this.hops(messages));
  }

  private hops(messages: QueueMessage[]): QueueMessage[] {
    const now = this.clock.now().getTime();
    return messages.map((message) => nextHop(message, now, this.maxDelayMs));
  }
}

function nextHop(message: QueueMessage, now: number, maxDelayMs: number): QueueMessage {
  const { hop: previous, hop_of: rearmedOf, ...body } = message.body as Record<string, unknown> & Partial<HopFields>;
  const of = rearmedOf ?? message.dedupeId;
  const hop = Number(previous ?? 0) + 1;
  // Each leg has an id of its own, so a redelivered hop arms the next leg only once.
  const dedupeId = rearmedOf ? `${rearmedOf}.hop${hop}` : message.dedupeId;
  const due = message.notBefore?.getTime();
  if (due === undefined || due - now <= maxDelayMs) return { ...message, body, ...(dedupeId ? { dedupeId } : {}) };
  const fields: HopFields = { hop_due_at: new Date(due).toISOString(), hop, ...(of ? { hop_of: of } : {}) };
  return { topic: message.topic, body: { ...body, ...fields }, notBefore: new Date(now + maxDelayMs), ...(of ? { dedupeId: `${of}.hop${hop}` } : {}) };
}

/**
 * What to do with a delivered message: `rearm` for a hop that arrived before the real due time
 * (publish it again, through a HoppingQueue), or `deliver` with the body its consumer expects.
 */
export function arrival(message: QueueMessage, clock: Clock): { rearm: QueueMessage } | { deliver: QueueMessage } {
  const { hop_due_at: dueAt, hop, hop_of: of, ...body } = message.body as Record<string, unknown> & Partial<HopFields>;
  if (typeof dueAt !== 'string') return { deliver: message };
  const due = new Date(dueAt);
  if (Number.isNaN(due.getTime()) || due.getTime() <= clock.now().getTime()) return { deliver: { topic: message.topic, body } };
  return { rearm: { topic: message.topic, body: { ...body, hop, ...(of ? { hop_of: of } : {}) }, notBefore: due } };
}
