import type { Receiver } from '@upstash/qstash';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { ApiError } from './api-error.js';
import { randomBase62 } from '../lib/crypto.js';
import { logError } from '../lib/log-error.js';
import { withinDeadline } from '../lib/deadline.js';
import { ATTEMPT_DEADLINE_MS, failureText, QUEUE_RETRIES } from '../queue/attempts.js';
import { dispatchMessage, type QueueConsumer, UnknownTopicError } from '../queue/consumers.js';
import { recordDeadJob } from '../queue/dead-jobs.js';
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
 * Where QStash delivers queued messages: `POST /internal/queue/{topic}` (the routing table,
 * functions/routes.ts, mounts these routes under `/internal`). Only a request whose
 * `Upstash-Signature` @upstash/qstash's Receiver verifies (current key, then next; for the URL
 * called and the body received) is acted on; an unknown topic, or a body that is not a JSON
 * object, is answered 489 with `Upstash-NonRetryable-Error`, so QStash dead-letters it instead of
 * retrying forever. A consumer that fails (or outlives its deadline) is answered 500 for QStash to
 * retry, except on the last retry: the job is then recorded in `dead_jobs`, the same record as the
 * embedded queue's, and answered 489 so that QStash stops.
 *
 * The body is read last: a request without a signature, or with one that is not even a QStash
 * token, is refused 401 before any of it is read; one over QUEUE_CALLBACK_BODY_LIMIT is refused 413
 * (by its declared length, or as soon as it has sent more). The signature then covers the body's
 * hash, so the body is verified once read.
 */
export function queueCallbackRoutes(receiver: Pick<Receiver, 'verify'>, consumers?: Record<string, QueueConsumer>) {
  const app = new Hono<AppEnv>();
  app.use('/*', requireQstashToken);
  app.use('/*', bodyLimit({ maxSize: QUEUE_CALLBACK_BODY_LIMIT, onError: () => Promise.reject(payloadTooLarge('64 KiB')) }));
  app.post('/queue/:topic', async (c) => {
    const body = await c.req.text();
    const signature = c.req.header('upstash-signature')!;
    // The Receiver throws for a signature it refuses; either way nothing is acted on.
    const verified = await receiver.verify({ signature, body, url: c.req.url }).catch(() => false);
    if (!verified) throw invalidSignature();
    const parsed = parseObject(body);
    if (!parsed) return c.json({ error: 'not a JSON object' }, 489 as 400, nonRetryable);
    const services = c.get('services');
    const topic = c.req.param('topic');
    try {
      await withinDeadline(dispatchMessage(services, { topic, body: parsed }, consumers), ATTEMPT_DEADLINE_MS, 'The attempt');
    } catch (err) {
      if (err instanceof UnknownTopicError) return c.json({ error: err.message }, 489 as 400, nonRetryable);
      const retried = retriesBefore(c.req.header('upstash-retried'));
      if (retried < QUEUE_RETRIES) throw err;
      // QStash would drop it after this answer: it is kept as a dead job, as the embedded queue keeps one.
      const messageId = c.req.header('upstash-message-id');
      await recordDeadJob(services.database.db, {
        id: messageId && /^[\w.-]{1,128}$/.test(messageId) ? messageId : `job_${randomBase62(22)}`,
        topic,
        body: parsed,
        attempts: retried + 1,
        lastError: failureText(err),
        failedAt: services.clock.now(),
      });
      logError(`queue: a ${topic} job failed its last attempt and is kept as a dead job`, err);
      return c.json({ error: 'kept as a dead job' }, 489 as 400, nonRetryable);
    }
    return c.json({ ok: true });
  });
  return app;
}

const nonRetryable = { 'Upstash-NonRetryable-Error': 'true' };

/** The body as an object, or undefined for one that is not JSON or not an object (`null`, an array, a number). */
function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How many times QStash retried this message before this delivery (`Upstash-Retried`); every
 * message is published with QUEUE_RETRIES retries, so at that count this delivery is the last. A
 * missing or malformed header counts as a first delivery.
 */
function retriesBefore(header: string | undefined): number {
  return header !== undefined && /^\d{1,6}$/.test(header) ? Number(header) : 0;
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
