import type { Client } from '@upstash/qstash';
import { withinDeadline } from '../../lib/deadline.js';
import type { Queue, QueueMessage } from '../../ports/queue.js';
import { QUEUE_RETRIES } from '../../queue/attempts.js';

/** How long one hand-off to QStash may take, the client's own retries included. */
export const PUBLISH_DEADLINE_MS = 10_000;

/**
 * The client's retries of a request that got no answer at all (a refused connection, a reset);
 * an answer, even an error, is not retried. Few and close together: the caller's deadline is short,
 * and the outbox's sweeper hands over later whatever a failed hand-off left.
 */
const CLIENT_RETRIES = 2;

export type QStashConnection = { baseUrl: string; token: string };

/**
 * Hands messages to QStash with @upstash/qstash's Client, which then calls back
 * `{callbackBaseUrl}/internal/queue/{topic}` at least once, not before the message is due,
 * retrying QUEUE_RETRIES times (the callback counts the same to tell the last delivery). All
 * messages of one hand-off go in one `batchJSON`: one round trip, and either QStash has them all
 * or the caller gets an error.
 *
 * The client is loaded on the first publish, not with the app: most requests never publish, and a
 * cold isolate's first read does not wait for it. Its requests take no abort signal, so a hand-off
 * that outlives PUBLISH_DEADLINE_MS is given up on instead: the caller sees a failure (an outbox
 * row stays unrelayed for the sweeper), and a late arrival at QStash is deduplicated by its id.
 */
export class QStashQueue implements Queue {
  private client?: Promise<Client>;

  constructor(
    private readonly connection: QStashConnection,
    private readonly callbackBaseUrl: string,
    private readonly deadlineMs = PUBLISH_DEADLINE_MS,
  ) {}

  async publish(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await withinDeadline(this.send(messages), this.deadlineMs, 'Publishing to QStash');
  }

  private async send(messages: QueueMessage[]): Promise<void> {
    const client = await this.loadClient();
    await client.batchJSON(
      messages.map((message) => ({
        url: `${this.callbackBaseUrl}/internal/queue/${message.topic}`,
        body: message.body,
        retries: QUEUE_RETRIES,
        ...(message.notBefore ? { notBefore: Math.ceil(message.notBefore.getTime() / 1000) } : {}),
        ...(message.dedupeId ? { deduplicationId: message.dedupeId } : {}),
      })),
    );
  }

  private loadClient(): Promise<Client> {
    this.client ??= import('@upstash/qstash').then(
      // devMode false: the settings given here, never a local dev server that QSTASH_DEV would name.
      ({ Client }) => new Client({ ...this.connection, retry: { retries: CLIENT_RETRIES }, devMode: false }),
      (err: unknown) => {
        this.client = undefined;
        throw err;
      },
    );
    return this.client;
  }
}
