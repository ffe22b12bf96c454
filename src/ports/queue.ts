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
  publish(messages: QueueMessage[]): Promise<void>;
}
