import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { QStashReceiver } from '../adapters/production/qstash-receiver.js';
import { ApiError } from '../errors.js';
import { dispatchMessage, type QueueConsumer, UnknownTopicError } from '../queue/consumers.js';
import type { AppEnv } from './app-env.js';
import { payloadTooLarge } from './error-handler.js';

/**
 * The largest callback body read. Our messages carry ids and a few small fields (a few hundred
 * bytes), so 64 KiB leaves a hundredfold room while bounding what a caller that has not yet proved
 * anything can make the Worker buffer and hash. QStash's own ceiling (1 MB on the free plan) would
 * only raise that bound for nothing we send.
 */
export const QUEUE_CALLBACK_BODY_LIMIT = 64 * 1024;

/**
 * Where QStash delivers queued messages: `POST /internal/queue/{topic}`. Only a request whose
 * `Upstash-Signature` verifies (current key, then next) is acted on; an unknown topic is answered
 * 489 with `Upstash-NonRetryable-Error`, so QStash dead-letters it instead of retrying forever.
 *
 * The body is read last: a request without a signature, or with one that is not even a QStash
 * token, is refused 401 before any of it is read; one over QUEUE_CALLBACK_BODY_LIMIT is refused 413
 * (by its declared length, or as soon as it has sent more). The signature then covers the body's
 * hash, so the body is verified once read.
 */
export function queueCallbackRoutes(receiver: Pick<QStashReceiver, 'verify'>, consumers?: Record<string, QueueConsumer>) {
  const app = new Hono<AppEnv>();
  app.use('/internal/*', requireQstashToken);
  app.use('/internal/*', bodyLimit({ maxSize: QUEUE_CALLBACK_BODY_LIMIT, onError: () => Promise.reject(payloadTooLarge('64 KiB')) }));
  app.post('/internal/queue/:topic', async (c) => {
    const body = await c.req.text();
    const signature = c.req.header('upstash-signature')!;
    const verified = await receiver.verify({ signature, body, url: c.req.url }).catch(() => false);
    if (!verified) throw invalidSignature();
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

const invalidSignature = () => new ApiError('unauthorized', 'The queue callback signature is not valid.');

/**
 * Refuses, before the body is read, a request whose `Upstash-Signature` is missing or cannot be a
 * QStash token: a JWT whose header names an HMAC algorithm and whose claims carry the body hash.
 * Nothing is verified here (the claims are only decoded); that takes the body, afterwards.
 */
const requireQstashToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const signature = c.req.header('upstash-signature');
  if (!signature) throw new ApiError('unauthorized', 'A queue callback must carry an Upstash-Signature.');
  if (!isTokenShaped(signature)) throw invalidSignature();
  await next();
};

function isTokenShaped(signature: string): boolean {
  try {
    const { alg } = decodeProtectedHeader(signature);
    const claims = decodeJwt(signature);
    return typeof alg === 'string' && /^HS(256|384|512)$/.test(alg) && typeof claims.body === 'string';
  } catch {
    return false;
  }
}
