import type { Client } from '@upstash/qstash';
import type { Queue, QueueMessage } from '../../ports/queue.js';

/**
 * Hands messages to QStash, which calls back `{baseUrl}/internal/queue/{topic}` at least once,
 * not before the message is due, retrying with backoff. All messages of one hand-off go in one
 * batch request: one round trip, and either QStash has them or the caller gets an error.
 */
export class QStashQueue implements Queue {
  private client?: Promise<Client>;

  constructor(
    private readonly connection: { baseUrl: string; token: string },
    private readonly callbackBaseUrl: string,
    private readonly retries = 5,
  ) {}

  /**
   * The QStash client is loaded and made on the first publish: making it reads the runtime's
   * `process`, whose first use costs a Worker isolate about 6 ms, which a GET has no reason to pay.
   */
  private qstash(): Promise<Client> {
    this.client ??= import('@upstash/qstash')
      .then(({ Client }) => new Client(this.connection))
      .catch((error: unknown) => {
        this.client = undefined; // the next publish tries again
        throw error;
      });
    return this.client;
  }

  async publish(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await (await this.qstash()).batchJSON(
      messages.map((message) => ({
        url: `${this.callbackBaseUrl}/internal/queue/${message.topic}`,
        body: message.body,
        retries: this.retries,
        ...(message.notBefore ? { notBefore: Math.ceil(message.notBefore.getTime() / 1000) } : {}),
        ...(message.dedupeId ? { deduplicationId: message.dedupeId } : {}),
      })),
    );
  }
}
