import type { Receiver } from '@upstash/qstash';
import { Hono } from 'hono';
import { ApiError } from '../errors.js';
import { dispatchMessage, type QueueConsumer, UnknownTopicError } from '../queue/consumers.js';
import type { AppEnv } from './app-env.js';

/**
 * Where QStash delivers queued messages: `POST /internal/queue/{topic}`. Only a request whose
 * `Upstash-Signature` verifies (current key, then next) is acted on; an unknown topic is answered
 * 489 with `Upstash-NonRetryable-Error`, so QStash dead-letters it instead of retrying forever.
 */
export function queueCallbackRoutes(receiver: Pick<Receiver, 'verify'>, consumers?: Record<string, QueueConsumer>) {
  const app = new Hono<AppEnv>();
  app.post('/internal/queue/:topic', async (c) => {
    const body = await c.req.text();
    const signature = c.req.header('upstash-signature') ?? '';
    const verified = await receiver.verify({ signature, body, url: c.req.url }).catch(() => false);
    if (!signature || !verified) throw new ApiError('unauthorized', 'The queue callback signature is not valid.');
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return c.json({ error: 'not JSON' }, 489 as 400, { 'Upstash-NonRetryable-Error': 'true' });
    }
    try {
      await dispatchMessage(c.get('services'), { topic: c.req.param('topic'), body: parsed }, consumers);
    } catch (err) {
      if (err instanceof UnknownTopicError) return c.json({ error: err.message }, 489 as 400, { 'Upstash-NonRetryable-Error': 'true' });
      throw err;
    }
    return c.json({ ok: true });
  });
  return app;
}
