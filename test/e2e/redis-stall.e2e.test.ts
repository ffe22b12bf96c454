/**
 * A Redis that stalls, on workerd with the production adapters (@upstash/redis and
 * @upstash/ratelimit through the REST stand-in): the machine's Redis holds every write, scripts
 * included, with `CLIENT PAUSE … WRITE`. A send then answers 503 service_unavailable without waiting for Redis to come back; a read goes on uncounted; and once Redis answers
 * again, sends are made as before.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { RespConnection } from '../../local/standins/resp-connection.js';
import { api } from './client.js';

const redisUrl = new URL(process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379/9');
/**
 * Far longer than the service waits for Redis (5 s on npm run dev, 1 s deployed), twice over (the
 * send, then the read): an answer before it ends did not wait for Redis.
 */
const PAUSE_MS = 20_000;
const nda = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const ndaSend = () => ({
  template_id: nda,
  recipients: [
    { role: 'Client', name: 'Cleo Client', email: `stall-client-${crypto.randomUUID().slice(0, 8)}@example.test` },
    { role: 'Witness', name: 'Will Witness', email: 'stall-witness@example.test' },
  ],
});

async function redis(command: string[]) {
  const connection = new RespConnection(redisUrl);
  try {
    return await connection.send([command]);
  } finally {
    await connection.close();
  }
}

afterEach(() => redis(['CLIENT', 'UNPAUSE']));

describe('a Redis that stops answering, on npm run dev', () => {
  it('answers a send 503 before Redis is back, lets reads through uncounted, and sends again once it answers', async () => {
    const token = inject('acmeSenderToken');
    const before = await api('GET', '/v1/contacts', { token: inject('acmeToken') });
    expect(before.headers.get('ratelimit-limit')).toBe('1000');

    await redis(['CLIENT', 'PAUSE', String(PAUSE_MS), 'WRITE']);
    const paused = Date.now();
    const stalled = await api('POST', '/v1/envelopes/from-template', { token, body: ndaSend() });
    const read = await api('GET', '/v1/contacts', { token: inject('acmeToken') });
    const answeredWithin = Date.now() - paused;

    expect(stalled.status).toBe(503);
    expect(stalled.body.error.code).toBe('service_unavailable');
    expect(read.status).toBe(200);
    expect(read.headers.get('ratelimit-limit')).toBeNull();
    // Both answered while Redis still held every write: neither waited for it.
    expect(answeredWithin).toBeLessThan(PAUSE_MS);

    await redis(['CLIENT', 'UNPAUSE']);
    const sent = await api('POST', '/v1/envelopes/from-template', { token, body: ndaSend() });
    expect(sent.status).toBe(201);
  }, 60_000);
});
