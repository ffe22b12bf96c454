/**
 * Durable, retried callbacks (webhook deliveries, e-mails, reminders, expiry). Production hands
 * them to QStash; the embedded queue runs them in-process. A message names a `topic` that a
 * consumer of the app handles, and is delivered at least once, not before `notBefore`.
 */
export type QueueMessage = {
  topic: string;
  body: Record<string, unknown>;
  notBefore?: Date;
  /** Deduplicates a hand-off that was retried. */
  dedupeId?: string;
};

export interface Queue {
  /** Resolves once the queue holds the messages: from then on they are delivered at least once. */
  publish(messages: QueueMessage[]): Promise<void>;
  /**
   * Publishes the messages of committed outbox rows and marks those rows relayed at `relayedAt`.
   * Optional: a queue that keeps its messages in the service's own database stores them and marks
   * the rows in one statement, so a row is never marked without its messages; without it, the relay
   * publishes, then marks.
   */
  relayFromOutbox?(messages: QueueMessage[], outbox: { ids: string[]; relayedAt: Date }): Promise<void>;
}
