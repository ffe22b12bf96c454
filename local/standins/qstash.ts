import { type Context, Hono } from 'hono';
import { backoffSeconds, parseDuration, retryAfterSeconds, signDelivery } from './qstash-timing.js';
import type { Standin } from './standin.js';

/**
 * A stand-in for QStash, as @upstash/qstash's Client({ baseUrl, token }) calls it: `POST
 * /v2/publish/<destination>` and `POST /v2/batch` (publish, publishJSON, batch, batchJSON), plus
 * `GET|DELETE /v2/messages/:id` and `GET /v2/dlq`. Messages live in memory; each is delivered with
 * fetch, signed per attempt, retried with QStash's backoff, and dead-lettered when out of retries.
 * `GET /__standin/messages` and `GET /__standin/dlq` show them to tests and developers.
 */
export interface QStashStandinOptions {
  /** The bearer token publishers must send (QSTASH_TOKEN). */
  token: string;
  /** QSTASH_CURRENT_SIGNING_KEY / QSTASH_NEXT_SIGNING_KEY; deliveries are signed with `current`. */
  signingKeys: { current: string; next: string };
  /** Multiplies retry waits (backoff and Retry-After): 0.001 turns QStash's 12 s into 12 ms. Default 1. */
  retryTimeScale?: number;
  /** Multiplies Upstash-Delay / Upstash-Not-Before waits, to fast-forward reminders. Default 1. */
  delayTimeScale?: number;
  /** Retries when a message names none (QStash's default is 3). */
  defaultRetries?: number;
  /** How long one delivery attempt may take before it counts as failed. Default 30 s. */
  deliveryTimeoutMs?: number;
}

export type QStashMessageState = 'CREATED' | 'ACTIVE' | 'RETRY' | 'DELIVERED' | 'FAILED' | 'CANCELLED';

export interface QStashMessage {
  messageId: string;
  destination: string;
  method: string;
  /** What the destination receives besides QStash's own headers: forwarded ones and Content-Type. */
  headers: Record<string, string>;
  body: string;
  state: QStashMessageState;
  attempts: number;
  maxRetries: number;
  createdAt: number;
  notBefore: number;
  nextDeliveryAt?: number;
  deduplicationId?: string;
  dlqId?: string;
  responses: { at: number; status?: number; error?: string; body?: string }[];
}

export interface QStashStandin extends Standin {
  messages(): QStashMessage[];
  deadLetters(): QStashMessage[];
}

interface Stored extends QStashMessage {
  bytes: Uint8Array;
  timer?: ReturnType<typeof setTimeout>;
}

class Invalid extends Error {}

// setTimeout overflows past ~24.8 days and would fire at once; longer waits are taken in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createQStashStandin(options: QStashStandinOptions): QStashStandin {
  const retryScale = options.retryTimeScale ?? 1;
  const delayScale = options.delayTimeScale ?? 1;
  const store = new Map<string, Stored>();
  const dedup = new Map<string, string>();
  const inFlight = new Set<{ controller: AbortController; done: Promise<void> }>();
  let stopped = false;

  /** Reads a publish request into a message, or throws Invalid; nothing is stored yet. */
  function draft(destination: string, headers: Headers, bytes: Uint8Array): Stored {
    if (!/^https?:\/\//.test(destination) || !URL.canParse(destination)) throw new Invalid(`invalid destination: ${destination}`);
    const now = Date.now();
    const delayHeader = headers.get('Upstash-Delay');
    const delay = delayHeader === null ? 0 : parseDuration(delayHeader);
    if (delay === undefined) throw new Invalid(`invalid Upstash-Delay: ${delayHeader}`);
    const notBeforeHeader = headers.get('Upstash-Not-Before');
    if (notBeforeHeader !== null && !/^\d+$/.test(notBeforeHeader)) throw new Invalid(`invalid Upstash-Not-Before: ${notBeforeHeader}`);
    const retriesHeader = headers.get('Upstash-Retries');
    if (retriesHeader !== null && !/^\d+$/.test(retriesHeader)) throw new Invalid(`invalid Upstash-Retries: ${retriesHeader}`);
    const forwarded: Record<string, string> = {};
    headers.forEach((value, name) => {
      if (name.startsWith('upstash-forward-')) forwarded[name.slice('upstash-forward-'.length)] = value;
    });
    const contentType = headers.get('Content-Type');
    if (contentType) forwarded['content-type'] = contentType;
    const body = new TextDecoder().decode(bytes);
    let deduplicationId = headers.get('Upstash-Deduplication-Id') ?? undefined;
    if (!deduplicationId && headers.get('Upstash-Content-Based-Deduplication') === 'true') {
      deduplicationId = `content:${JSON.stringify([destination, body, Object.entries(forwarded).sort()])}`;
    }
    return {
      messageId: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
      destination,
      method: (headers.get('Upstash-Method') ?? 'POST').toUpperCase(),
      headers: forwarded,
      body,
      bytes,
      state: 'CREATED',
      attempts: 0,
      maxRetries: retriesHeader !== null ? Number(retriesHeader) : (options.defaultRetries ?? 3),
      createdAt: now,
      // Not-Before (unix seconds) wins over Delay, as in QStash.
      notBefore: notBeforeHeader !== null ? Number(notBeforeHeader) * 1000 : now + delay,
      deduplicationId,
      responses: [],
    };
  }

  /**
   * Stores and schedules a message, unless its deduplication id was seen before. Ids are kept as
   * long as the stand-in runs (QStash forgets them after a while), which errs on the strict side.
   */
  function enqueue(message: Stored): { messageId: string; deduplicated?: true } {
    const earlier = message.deduplicationId && dedup.get(message.deduplicationId);
    if (earlier) return { messageId: earlier, deduplicated: true };
    store.set(message.messageId, message);
    if (message.deduplicationId) dedup.set(message.deduplicationId, message.messageId);
    schedule(message, message.createdAt + Math.max(0, message.notBefore - message.createdAt) * delayScale);
    return { messageId: message.messageId };
  }

  function schedule(message: Stored, at: number) {
    if (stopped) return;
    message.nextDeliveryAt = at;
    const wait = Math.max(0, at - Date.now());
    message.timer = setTimeout(
      () => {
        message.timer = undefined;
        if (Date.now() < at) schedule(message, at);
        else track(deliver(message));
      },
      Math.min(wait, MAX_TIMER_MS),
    );
  }

  function track(delivery: (controller: AbortController) => Promise<void>) {
    const controller = new AbortController();
    const entry = { controller, done: Promise.resolve() };
    entry.done = delivery(controller).finally(() => inFlight.delete(entry));
    inFlight.add(entry);
  }

  const deliver = (message: Stored) => async (controller: AbortController) => {
    const retried = message.attempts;
    message.state = 'ACTIVE';
    message.attempts += 1;
    message.nextDeliveryAt = undefined;
    const headers = new Headers(message.headers);
    headers.set('Upstash-Signature', await signDelivery(options.signingKeys.current, message.destination, message.bytes, Date.now()));
    headers.set('Upstash-Message-Id', message.messageId);
    headers.set('Upstash-Retried', String(retried));
    const timeout = setTimeout(() => controller.abort(new Error('delivery timed out')), options.deliveryTimeoutMs ?? 30_000);
    let response: Response | undefined;
    let failure: string | undefined;
    try {
      response = await fetch(message.destination, {
        method: message.method,
        headers,
        body: message.method === 'GET' || message.method === 'HEAD' ? undefined : (message.bytes as Uint8Array<ArrayBuffer>),
        redirect: 'manual', // a redirect is not a delivery; following it would also change the signed URL
        signal: controller.signal,
      });
      message.responses.push({ at: Date.now(), status: response.status, body: (await response.text()).slice(0, 2000) });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      message.responses.push({ at: Date.now(), error: failure });
    } finally {
      clearTimeout(timeout);
    }
    // Re-read: a DELETE may have cancelled the message while it was in flight.
    if (stopped || (message.state as QStashMessageState) === 'CANCELLED') return;
    if (response && response.status >= 200 && response.status < 300) {
      message.state = 'DELIVERED';
      return;
    }
    const nonRetryable = response?.status === 489 && response.headers.get('Upstash-NonRetryable-Error') === 'true';
    if (nonRetryable || retried >= message.maxRetries) {
      message.state = 'FAILED';
      message.dlqId = `dlq_${message.messageId}`;
      return;
    }
    message.state = 'RETRY';
    const seconds = retryAfterSeconds(response?.headers.get('Retry-After') ?? null, Date.now()) ?? backoffSeconds(message.attempts);
    schedule(message, Date.now() + seconds * 1000 * retryScale);
  };

  const view = ({ bytes: _bytes, timer: _timer, ...message }: Stored): QStashMessage => structuredClone(message);
  const messages = () => [...store.values()].map(view);
  const deadLetters = () => [...store.values()].filter((m) => m.state === 'FAILED').map(view);

  const app = new Hono();
  app.get('/__standin/messages', (c) => c.json(messages()));
  app.get('/__standin/dlq', (c) => c.json(deadLetters()));
  app.use('/v2/*', async (c, next) => {
    const bearer = c.req.header('Authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (bearer !== options.token) return c.json({ error: 'Unauthorized' }, 401);
    await next();
  });
  const invalid = (c: Context, error: unknown) => {
    if (error instanceof Invalid) return c.json({ error: error.message }, 400);
    throw error;
  };
  app.post('/v2/publish/*', async (c) => {
    // Taken from the raw URL: the destination keeps its own `//` and query string.
    const url = new URL(c.req.url);
    const destination = decodeURI(url.pathname.slice('/v2/publish/'.length)) + url.search;
    try {
      return c.json(enqueue(draft(destination, c.req.raw.headers, new Uint8Array(await c.req.arrayBuffer()))), 201);
    } catch (error) {
      return invalid(c, error);
    }
  });
  app.post('/v2/batch', async (c) => {
    const batch = (await c.req.json().catch(() => undefined)) as { destination?: unknown; headers?: Record<string, string>; body?: unknown }[];
    if (!Array.isArray(batch)) return c.json({ error: 'the body must be an array of messages' }, 400);
    try {
      // Read every message before storing any, so one bad message leaves the whole batch unpublished.
      const drafts = batch.map((m) => {
        if (typeof m?.destination !== 'string') throw new Invalid('each message needs a destination');
        const body = typeof m.body === 'string' ? m.body : '';
        return draft(m.destination, new Headers(m.headers ?? {}), new TextEncoder().encode(body));
      });
      return c.json(
        drafts.map((m) => ({ ...enqueue(m), url: m.destination })),
        201,
      );
    } catch (error) {
      return invalid(c, error);
    }
  });
  app.get('/v2/messages/:id', (c) => {
    const message = store.get(c.req.param('id'));
    return message ? c.json({ ...view(message), url: message.destination }) : c.json({ error: 'message not found' }, 404);
  });
  app.delete('/v2/messages/:id', (c) => {
    const message = store.get(c.req.param('id'));
    if (!message) return c.json({ error: 'message not found' }, 404);
    if (message.state !== 'CREATED' && message.state !== 'RETRY' && message.state !== 'ACTIVE') return c.json({ cancelled: 0 });
    clearTimeout(message.timer);
    message.state = 'CANCELLED';
    return c.json({ cancelled: 1 });
  });
  app.get('/v2/dlq', (c) => c.json({ messages: deadLetters().map((m) => ({ ...m, url: m.destination })) }));

  return {
    fetch: (request) => app.fetch(request),
    messages,
    deadLetters,
    async close() {
      stopped = true;
      for (const message of store.values()) clearTimeout(message.timer);
      for (const { controller } of inFlight) controller.abort(new Error('stand-in stopped'));
      await Promise.all([...inFlight].map((entry) => entry.done.catch(() => {})));
    },
  };
}
