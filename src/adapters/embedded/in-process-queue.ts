import type { Queue, QueueMessage } from '../../ports/queue.js';

const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const MAX_REMEMBERED_IDS = 100_000;

export type Consumer = (message: QueueMessage) => Promise<void>;

/**
 * The embedded queue: runs each message's consumer in process once it is due, retrying a failed
 * one with backoff like QStash does. Messages live in memory only: the embedded server is for
 * development, and a restart drops pending timers.
 */
export class InProcessQueue implements Queue {
  private consumer: Consumer | undefined;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly seen = new Set<string>();

  constructor(private readonly options: { maxRetries?: number; backoffMs?: (attempt: number) => number } = {}) {}

  /** The app registers what to do with each topic once it is built. */
  consume(consumer: Consumer): void {
    this.consumer = consumer;
  }

  async publish(messages: QueueMessage[]): Promise<void> {
    for (const message of messages) {
      if (message.dedupeId) {
        if (this.seen.has(message.dedupeId)) continue;
        this.seen.add(message.dedupeId);
        // Sets keep insertion order: forget the oldest ids, so a long-running server stays bounded.
        if (this.seen.size > MAX_REMEMBERED_IDS) this.seen.delete(this.seen.values().next().value!);
      }
      this.schedule(message, 0, Math.max(0, (message.notBefore?.getTime() ?? 0) - Date.now()));
    }
  }

  /** Stops every pending delivery (tests and shutdown). */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(message: QueueMessage, attempt: number, delayMs: number): void {
    const due = Date.now() + delayMs;
    // setTimeout cannot wait longer than about 24.8 days; a longer wait (a 30-day expiry) is
    // taken in steps.
    const timer = setTimeout(async () => {
      this.timers.delete(timer);
      if (Date.now() < due) return this.schedule(message, attempt, due - Date.now());
      try {
        await this.consumer?.(message);
      } catch {
        // As many retries as QStash makes of ours, so a delivery's schedule ends at the same attempt.
        const maxRetries = this.options.maxRetries ?? 5;
        if (attempt < maxRetries) this.schedule(message, attempt + 1, this.options.backoffMs?.(attempt + 1) ?? 1000 * 2 ** attempt);
      }
    }, Math.min(delayMs, MAX_TIMEOUT_MS));
    timer.unref?.();
    this.timers.add(timer);
  }
}
