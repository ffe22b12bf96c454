/** The QStash callback route inside workerd, verified by @upstash/qstash's Receiver. */
import { Hono } from 'hono';
import { SignJWT } from 'jose';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Receiver } from '@upstash/qstash';
import { mountLater } from '../../src/app.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { handleError, handleNotFound } from '../../src/http/error-handler.js';
import { QUEUE_CALLBACK_BODY_LIMIT, queueCallbackRoutes } from '../../src/http/queue-callback.js';
import { systemClock } from '../../src/ports/clock.js';
import type { QueueConsumer } from '../../src/queue/consumers.js';
import type { Services } from '../../src/services.js';
import { qstashDelivery, qstashSignature } from './qstash-signature.js';

const keys = { current: 'sig_workerd_current_0123456789', next: 'sig_workerd_next_0123456789' };
const BASE = 'https://esign.example.test';
const topicUrl = (topic: string) => `${BASE}/internal/queue/${topic}`;

/** The services a consumer's context carries: only their identity matters here, and the clock its context reads. */
const services = { marker: 'workerd-services', clock: systemClock } as unknown as Services;

let received: { services: Services; body: Record<string, unknown> }[];
let failNext: Error | undefined;
const consumers: Record<string, QueueConsumer> = {
  'test.recorded': async (ctx, body) => {
    if (failNext) {
      const error = failNext;
      failNext = undefined;
      throw error;
    }
    received.push({ services: ctx.services, body });
  },
};

/** Mounted the way the Worker mounts it (src/entries/worker.ts): behind the app's error handler, with services set. */
const app = new Hono<AppEnv>();
app.onError(handleError);
app.notFound(handleNotFound);
mountLater(app, '/internal/*', services, async () =>
  queueCallbackRoutes(new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next }), consumers),
);

const deliver = (request: Request) => app.fetch(request);

beforeEach(() => {
  received = [];
  failNext = undefined;
});

describe('POST /internal/queue/{topic}', () => {
  const body = JSON.stringify({ envelope_id: 'env_123', attempt: 1, note: 'é ✓' });

  it('answers a request without Upstash-Signature with 401 unauthorized, and runs nothing', async () => {
    const response = await deliver(qstashDelivery(topicUrl('test.recorded'), body, undefined));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await deliver(qstashDelivery(topicUrl('test.recorded'), body, ''))).status).toBe(401);
    expect(received).toEqual([]);
  });

  it('answers a signature made with another key with 401, and runs nothing', async () => {
    const signature = await qstashSignature('sig_someone_else_0123456789', topicUrl('test.recorded'), body);
    const response = await deliver(qstashDelivery(topicUrl('test.recorded'), body, signature));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect(received).toEqual([]);
  });

  it('answers 401 to a signature for another body, another URL, another issuer, or one that expired', async () => {
    const url = topicUrl('test.recorded');
    const forged = [
      await qstashSignature(keys.current, url, body, { signedBody: body.replace('env_123', 'env_999') }),
      await qstashSignature(keys.current, url, body, { subject: topicUrl('test.other') }),
      await qstashSignature(keys.current, url, body, { subject: `${url}?x=1` }),
      await qstashSignature(keys.current, url, body, { issuer: 'NotUpstash' }),
      await qstashSignature(keys.current, url, body, { expiresIn: -60 }),
      'not.a.jwt',
    ];
    for (const signature of forged) expect((await deliver(qstashDelivery(url, body, signature))).status).toBe(401);
    expect(received).toEqual([]);
  });

  it('runs the topic’s consumer with the parsed body and answers 200, under the current or the next key', async () => {
    for (const key of [keys.current, keys.next]) {
      const response = await deliver(qstashDelivery(topicUrl('test.recorded'), body, await qstashSignature(key, topicUrl('test.recorded'), body)));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(received).toEqual([
      { services, body: JSON.parse(body) },
      { services, body: JSON.parse(body) },
    ]);
  });

  it('answers an unknown topic with 489 and Upstash-NonRetryable-Error, so QStash dead-letters it', async () => {
    const url = topicUrl('test.unknown');
    const response = await deliver(qstashDelivery(url, body, await qstashSignature(keys.current, url, body)));
    expect(response.status).toBe(489);
    expect(response.headers.get('Upstash-NonRetryable-Error')).toBe('true');
    expect(await response.json()).toEqual({ error: expect.stringContaining('test.unknown') });
    expect(received).toEqual([]);
  });

  it('answers a signed body that is not JSON with 489 and Upstash-NonRetryable-Error', async () => {
    const url = topicUrl('test.recorded');
    const response = await deliver(qstashDelivery(url, 'not json', await qstashSignature(keys.current, url, 'not json')));
    expect(response.status).toBe(489);
    expect(response.headers.get('Upstash-NonRetryable-Error')).toBe('true');
    expect(received).toEqual([]);
  });

  it.each(['null', '[]', '[{"envelope_id":"env_123"}]', '42', '"text"', 'true'])(
    'answers a signed body of %s (JSON, but not an object) with 489 and Upstash-NonRetryable-Error, never 500',
    async (json) => {
      const url = topicUrl('test.recorded');
      const response = await deliver(qstashDelivery(url, json, await qstashSignature(keys.current, url, json)));
      expect(response.status).toBe(489);
      expect(response.headers.get('Upstash-NonRetryable-Error')).toBe('true');
      expect(await response.json()).toEqual({ error: 'not a JSON object' });
      expect(received).toEqual([]);
    },
  );

  it('refuses a request without a signature, or with one that cannot be a QStash token, before reading any of its body', async () => {
    const url = topicUrl('test.recorded');
    const noBodyClaim = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('Upstash')
      .setSubject(url)
      .sign(new TextEncoder().encode(keys.current));
    const unsigned = `${btoa(JSON.stringify({ alg: 'none' }))}.${btoa(JSON.stringify({ iss: 'Upstash', sub: url, body: 'x' }))}.`.replaceAll('=', '');
    for (const signature of [undefined, '', 'not.a.jwt', 'garbage', noBodyClaim, unsigned]) {
      const body = untouchedBody();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (signature !== undefined) headers['upstash-signature'] = signature;
      const response = await deliver(new Request(url, { method: 'POST', headers, body: body.stream }));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
      expect(body.pulled()).toBe(false);
    }
    expect(received).toEqual([]);
  });

  it('reads a body up to 64 KiB, and refuses a longer one with 413 payload_too_large without reading it all', async () => {
    const url = topicUrl('test.recorded');
    // Exactly at the limit: read, verified and run.
    const prefix = JSON.stringify({ envelope_id: 'env_123', pad: '' });
    const atLimit = JSON.stringify({ envelope_id: 'env_123', pad: 'x'.repeat(QUEUE_CALLBACK_BODY_LIMIT - prefix.length) });
    expect(new TextEncoder().encode(atLimit).length).toBe(QUEUE_CALLBACK_BODY_LIMIT);
    const accepted = await deliver(qstashDelivery(url, atLimit, await qstashSignature(keys.current, url, atLimit)));
    expect(accepted.status).toBe(200);
    expect(received).toHaveLength(1);

    // One byte over, signed as QStash would: refused by its size.
    const over = `${atLimit} `;
    const refused = await deliver(qstashDelivery(url, over, await qstashSignature(keys.current, url, over)));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: { code: 'payload_too_large', details: { limit: '64 KiB' } } });

    // A stream of unknown length that does not stop: read only up to the limit.
    const endless = endlessBody();
    const signature = await qstashSignature(keys.current, url, 'whatever');
    const streamed = await deliver(new Request(url, { method: 'POST', headers: { 'upstash-signature': signature }, body: endless.stream }));
    expect(streamed.status).toBe(413);
    expect(endless.sent()).toBeLessThanOrEqual(QUEUE_CALLBACK_BODY_LIMIT + 16 * 1024);
    expect(received).toHaveLength(1);
  });

  it('answers 500 when the consumer fails, so QStash retries; the cause goes to the log, not the answer', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      failNext = new Error('the mail provider said no to secret-recipient@example.test');
      const url = topicUrl('test.recorded');
      const response = await deliver(qstashDelivery(url, body, await qstashSignature(keys.current, url, body)));
      expect(response.status).toBe(500);
      expect(response.headers.get('Upstash-NonRetryable-Error')).toBeNull();
      const answer = await response.json();
      expect(answer).toMatchObject({ error: { code: 'internal_error' } });
      expect(JSON.stringify(answer)).not.toContain('secret-recipient');
      expect(JSON.stringify(log.mock.calls)).toContain('the mail provider said no');
      expect(received).toEqual([]);
    } finally {
      log.mockRestore();
    }
  });
});

/** A body that records whether anything asked for it: nothing is pulled until someone reads. */
function untouchedBody() {
  let pulled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled = true;
        controller.enqueue(new TextEncoder().encode('{"envelope_id":"env_123"}'));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

/** A body of 16 KiB chunks that never ends, counting what was sent. */
function endlessBody() {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        sent += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, sent: () => sent };
}
