import type { Queue, QueueMessage } from '../../ports/queue.js';

/**
 * Hands messages to QStash, which calls back `{baseUrl}/internal/queue/{topic}` at least once,
 * not before the message is due, retrying with backoff. All messages of one hand-off go in one
 * batch request (`POST /v2/batch`): one round trip, and either QStash has them or the caller gets
 * an error. QStash's protocol is spoken directly, as @upstash/qstash's `batchJSON` speaks it
 * (test/standins/qstash-protocol.test.ts compares the two): that client is 65 KiB of the Worker's
 * bundle, compiled at every cold start, for this one request.
 */
export class QStashQueue implements Queue {
  constructor(
    private readonly connection: { baseUrl: string; token: string },
    private readonly callbackBaseUrl: string,
    private readonly retries = 5,
  ) {}

  async publish(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const batch = messages.map((message) => ({
      destination: `${this.callbackBaseUrl}/internal/queue/${message.topic}`,
      headers: {
        'content-type': 'application/json',
        'upstash-method': 'POST',
        'upstash-retries': String(this.retries),
        ...(message.notBefore ? { 'upstash-not-before': String(Math.ceil(message.notBefore.getTime() / 1000)) } : {}),
        ...(message.dedupeId ? { 'upstash-deduplication-id': message.dedupeId } : {}),
      },
      body: JSON.stringify(message.body),
    }));
    const response = await fetch(`${this.connection.baseUrl.replace(/\/$/, '')}/v2/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.connection.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    if (!response.ok) {
      const reason = ((await response.json().catch(() => undefined)) as { error?: unknown } | undefined)?.error;
      throw new Error(`QStash refused the batch: ${response.status}${typeof reason === 'string' ? ` ${reason}` : ''}`);
    }
    await response.body?.cancel();
  }
}
