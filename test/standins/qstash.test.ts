import { Client, Receiver } from '@upstash/qstash';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQStashStandin, type QStashMessage, type QStashStandin } from '../../local/standins/qstash.js';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { eventually } from '../support/eventually.js';
import { expectErrorLogs } from '../support/expected-errors.js';

// The QStash stand-in, driven by the real @upstash/qstash Client and verified by its Receiver.
const token = 'qstash-test-token';
const signingKeys = { current: 'sig_test_current_key', next: 'sig_test_next_key' };
const retryTimeScale = 0.001; // QStash's 12 s first backoff becomes 12 ms

interface Arrival {
  path: string;
  at: number;
  method: string;
  headers: Record<string, string>;
  body: string;
  verified: boolean;
}

/** A receiver that verifies each delivery as production code would, and answers per path. */
function receiverApp(arrivals: Arrival[], baseUrl: () => string) {
  const receiver = new Receiver({ currentSigningKey: signingKeys.current, nextSigningKey: signingKeys.next });
  const app = new Hono();
  app.all('/hooks/:name', async (c) => {
    const body = await c.req.text();
    const url = `${baseUrl()}${c.req.path}${new URL(c.req.url).search}`;
    const verified = await receiver.verify({ signature: c.req.header('Upstash-Signature') ?? '', body, url }).catch(() => false);
    const seen = arrivals.filter((a) => a.path === c.req.path).length;
    arrivals.push({ path: c.req.path, at: Date.now(), method: c.req.method, headers: c.req.header(), body, verified });
    switch (c.req.param('name')) {
      case 'flaky':
        return seen < 2 ? c.text('not yet', 500) : c.text('ok');
      case 'slow-down':
        return seen < 1 ? c.text('busy', 503, { 'Retry-After': '400' }) : c.text('ok');
      case 'refuse':
        return new Response('never', { status: 489, headers: { 'Upstash-NonRetryable-Error': 'true' } });
      case 'broken':
        return c.text('down', 500);
      default:
        return c.text('ok');
    }
  });
  return { fetch: (request: Request) => app.fetch(request), close: async () => {} };
}

/** Waits until `probe` answers something, and answers it. */
const waitFor = <T>(probe: () => T | undefined): Promise<T> =>
  vi.waitFor(() => {
    const value = probe();
    if (!value) throw new Error('not yet');
    return value;
  }, eventually);

describe('QStash stand-in', () => {
  const { expectLogged } = expectErrorLogs();
  const arrivals: Arrival[] = [];
  let standin: QStashStandin;
  let qstash: ServedStandin;
  let receiver: ServedStandin;
  let client: Client;
  const hook = (name: string) => `${receiver.url}/hooks/${name}`;
  const arrivalsAt = (name: string) => arrivals.filter((a) => a.path === `/hooks/${name}`);
  const message = (id: string) => standin.messages().find((m) => m.messageId === id);
  const settled = (id: string) =>
    waitFor(() => {
      const m = message(id);
      return m && ['DELIVERED', 'FAILED', 'CANCELLED'].includes(m.state) ? m : undefined;
    });

  beforeAll(async () => {
    receiver = await serveStandin(receiverApp(arrivals, () => receiver.url));
    standin = createQStashStandin({ token, signingKeys, retryTimeScale });
    qstash = await serveStandin(standin);
    client = new Client({ baseUrl: qstash.url, token });
  });

  afterAll(async () => {
    await qstash?.close();
    await receiver?.close();
  });

  it('delivers a published JSON message, signed so that Receiver.verify accepts it', async () => {
    const { messageId } = await client.publishJSON({ url: `${hook('plain')}?envelope=1`, body: { hello: 'Zoë' } });
    expect(messageId).toMatch(/^msg_/);
    const delivered = await settled(messageId);
    expect(delivered).toMatchObject({ state: 'DELIVERED', attempts: 1, destination: `${hook('plain')}?envelope=1` });
    const [arrival] = arrivalsAt('plain');
    expect(arrival).toMatchObject({ verified: true, method: 'POST', body: JSON.stringify({ hello: 'Zoë' }) });
    expect(arrival!.headers).toMatchObject({ 'content-type': 'application/json', 'upstash-message-id': messageId, 'upstash-retried': '0' });
  });

  it('signs for this body and URL only, with the current key (the next key also verifies)', async () => {
    const { messageId } = await client.publish({ url: hook('signed'), body: 'exact body' });
    await settled(messageId);
    const signature = arrivalsAt('signed')[0]!.headers['upstash-signature']!;
    const verify = (keys: { currentSigningKey: string; nextSigningKey: string }, body: string, url: string) =>
      new Receiver(keys).verify({ signature, body, url });
    await expect(verify({ currentSigningKey: signingKeys.current, nextSigningKey: 'x' }, 'exact body', hook('signed'))).resolves.toBe(true);
    await expect(verify({ currentSigningKey: 'other', nextSigningKey: signingKeys.current }, 'exact body', hook('signed'))).resolves.toBe(true);
    await expect(verify({ currentSigningKey: 'other', nextSigningKey: 'wrong' }, 'exact body', hook('signed'))).rejects.toThrow();
    await expect(verify({ currentSigningKey: signingKeys.current, nextSigningKey: 'x' }, 'exact body!', hook('signed'))).rejects.toThrow(/body hash/);
    await expect(verify({ currentSigningKey: signingKeys.current, nextSigningKey: 'x' }, 'exact body', hook('other'))).rejects.toThrow(/subject/);
  });

  it('does not deliver a delayed message before its delay, nor before Not-Before', async () => {
    const publishedAt = Date.now();
    const { messageId } = await client.publishJSON({ url: hook('delayed'), body: { n: 1 }, delay: 1 });
    expect(message(messageId)?.state).toBe('CREATED');
    // The arrival's own time proves it came no earlier than the delay.
    await settled(messageId);
    expect(arrivalsAt('delayed')[0]!.at - publishedAt).toBeGreaterThanOrEqual(1_000);

    const notBefore = Math.floor(Date.now() / 1000) + 2;
    const later = await client.publishJSON({ url: hook('not-before'), body: {}, notBefore });
    await settled(later.messageId);
    expect(arrivalsAt('not-before')[0]!.at).toBeGreaterThanOrEqual(notBefore * 1000);
  });

  it('retries a failing receiver with backoff until it succeeds', async () => {
    const { messageId } = await client.publishJSON({ url: hook('flaky'), body: {}, retries: 3 });
    expect(await settled(messageId)).toMatchObject({ state: 'DELIVERED', attempts: 3 });
    const attempts = arrivalsAt('flaky');
    expect(attempts.map((a) => a.headers['upstash-retried'])).toEqual(['0', '1', '2']);
    expect(attempts.every((a) => a.verified)).toBe(true);
    // min(86400, e^(2.5·n)) seconds after the n-th failure, scaled: about 12 ms, then 148 ms.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(11);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(140);
  });

  it('waits as long as Retry-After asks', async () => {
    const { messageId } = await client.publishJSON({ url: hook('slow-down'), body: {}, retries: 2 });
    await settled(messageId);
    const [first, second] = arrivalsAt('slow-down');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(395); // 400 s, scaled
  });

  it('sends a 489 non-retryable answer straight to the dead-letter list', async () => {
    const { messageId } = await client.publishJSON({ url: hook('refuse'), body: {}, retries: 3 });
    expect(await settled(messageId)).toMatchObject({ state: 'FAILED', attempts: 1 });
    expect(standin.deadLetters().map((m) => m.messageId)).toContain(messageId);
    const listed = (await (await fetch(`${qstash.url}/__standin/dlq`)).json()) as QStashMessage[];
    expect(listed.find((m) => m.messageId === messageId)?.responses[0]?.status).toBe(489);
  });

  it('dead-letters a message once its retries are used up', async () => {
    const { messageId } = await client.publishJSON({ url: hook('broken'), body: {}, retries: 2 });
    expect(await settled(messageId)).toMatchObject({ state: 'FAILED', attempts: 3, maxRetries: 2 });
    expect(arrivalsAt('broken')).toHaveLength(3);
    const all = (await (await fetch(`${qstash.url}/__standin/messages`)).json()) as QStashMessage[];
    expect(all.find((m) => m.messageId === messageId)).toMatchObject({ state: 'FAILED', destination: hook('broken') });
  });

  it('forwards Upstash-Forward-* headers and honours the method', async () => {
    const { messageId } = await client.publish({
      url: hook('forwarded'),
      body: 'x',
      method: 'PUT',
      headers: { 'X-Envelope-Id': 'env_123', 'Content-Type': 'text/plain' },
    });
    await settled(messageId);
    const [arrival] = arrivalsAt('forwarded');
    expect(arrival).toMatchObject({ method: 'PUT', verified: true });
    expect(arrival!.headers).toMatchObject({ 'x-envelope-id': 'env_123', 'content-type': 'text/plain' });
    expect(arrival!.headers).not.toHaveProperty('authorization');
    expect(Object.keys(arrival!.headers).filter((h) => h.startsWith('upstash-forward'))).toEqual([]);
  });

  it('delivers a message once per deduplication id', async () => {
    const first = await client.publishJSON({ url: hook('dedup'), body: { n: 1 }, deduplicationId: 'dedup-1' });
    const second = await client.publishJSON({ url: hook('dedup'), body: { n: 2 }, deduplicationId: 'dedup-1' });
    expect(second.messageId).toBe(first.messageId);
    await settled(first.messageId);
    // One message is stored, and it has been delivered: no other can arrive later.
    expect(standin.messages().filter((m) => m.destination === hook('dedup'))).toHaveLength(1);
    expect(arrivalsAt('dedup').map((a) => a.body)).toEqual([JSON.stringify({ n: 1 })]);
  });

  it('publishes a batchJSON whole, each message delivered', async () => {
    const answers = await client.batchJSON([
      { url: hook('batch-a'), body: { a: 1 }, retries: 1 },
      { url: hook('batch-b'), body: { b: 2 }, notBefore: Math.floor(Date.now() / 1000) },
    ]);
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(await settled((answer as { messageId: string }).messageId)).toMatchObject({ state: 'DELIVERED' });
    expect(arrivalsAt('batch-a')[0]).toMatchObject({ verified: true, body: '{"a":1}' });
    expect(arrivalsAt('batch-b')[0]!.headers['content-type']).toBe('application/json');
    const bad = await fetch(`${qstash.url}/v2/batch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: JSON.stringify([{ destination: hook('batch-c'), body: '{}' }, { destination: 'not a url' }]),
    });
    expect(bad.status).toBe(400);
    expect(standin.messages().some((m) => m.destination === hook('batch-c'))).toBe(false);
  });

  it('cancels a pending message', async () => {
    const { messageId } = await client.publishJSON({ url: hook('cancelled'), body: {}, delay: 1 });
    expect(await client.messages.cancel(messageId)).toEqual({ cancelled: 1 });
    // A message with the same delay, published after: once it arrives, the cancelled one was due.
    await settled((await client.publishJSON({ url: hook('after-cancelled'), body: {}, delay: 1 })).messageId);
    expect(arrivalsAt('cancelled')).toHaveLength(0);
    expect(message(messageId)?.state).toBe('CANCELLED');
  });

  it('refuses a wrong token', async () => {
    // The client library says so on its own.
    expectLogged(/^\[Upstash QStash\] POST .* failed with status 401/);
    const stranger = new Client({ baseUrl: qstash.url, token: 'wrong', retry: false });
    await expect(stranger.publishJSON({ url: hook('plain'), body: {} })).rejects.toThrow(/Unauthorized/);
  });

  it('stops cleanly: close() clears pending timers', async () => {
    const own = createQStashStandin({ token, signingKeys, retryTimeScale });
    const served = await serveStandin(own);
    const ownClient = new Client({ baseUrl: served.url, token });
    await ownClient.publishJSON({ url: hook('after-close'), body: {}, delay: 1 });
    await ownClient.publishJSON({ url: hook('broken'), body: {}, retries: 50 });
    await served.close();
    const brokenSoFar = arrivalsAt('broken').length;
    // A message with the same delay on the running stand-in: once it arrives, the closed one's was due.
    await settled((await client.publishJSON({ url: hook('after-close-sentinel'), body: {}, delay: 1 })).messageId);
    expect(arrivalsAt('after-close')).toHaveLength(0);
    expect(arrivalsAt('broken')).toHaveLength(brokenSoFar);
  });
});
