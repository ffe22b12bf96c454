/**
 * The Worker's queue on @upstash/qstash: what QStashQueue hands QStash through the Client (one
 * batch, each message's destination, due time, dedupe id and retries), its deadline and refusals;
 * and the Receiver's verdicts on the signatures the tests' QStash (test/workerd/qstash-signature.ts,
 * like the local stand-in) makes, so that the suites that sign deliveries sign them as QStash does.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Receiver } from '@upstash/qstash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QStashQueue } from '../../src/adapters/production/qstash-queue.js';
import { DeadlineExceeded } from '../../src/lib/deadline.js';
import { QUEUE_RETRIES } from '../../src/queue/attempts.js';
import { qstashSignature } from '../workerd/qstash-signature.js';

type Captured = { method: string; path: string; headers: IncomingMessage['headers']; body: string };

describe('QStashQueue: the batch request', () => {
  const captured: Captured[] = [];
  let answer = { status: 201, body: '[]' };
  let baseUrl = '';
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      captured.push({ method: request.method!, path: request.url!, headers: request.headers, body });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const notBefore = new Date('2030-01-01T00:00:00.400Z');
  const messages = [
    { topic: 'envelope.remind', body: { envelope_id: 'env_1' }, notBefore, dedupeId: 'env_1.remind.1' },
    { topic: 'email.signing-request', body: { envelope_id: 'env_1', recipient_id: 'rcp_é', reminder: false } },
  ];

  it("hands every message to QStash in one batch through @upstash/qstash's Client", async () => {
    captured.length = 0;
    answer = { status: 201, body: JSON.stringify(messages.map(() => ({ messageId: 'msg' }))) };
    await new QStashQueue({ baseUrl, token: 'qstash-token' }, 'https://esign.example.test').publish(messages);
    expect(captured).toHaveLength(1);
    const [batch] = captured;
    expect([batch!.method, batch!.path, batch!.headers.authorization]).toEqual(['POST', '/v2/batch', 'Bearer qstash-token']);
    const sent = JSON.parse(batch!.body) as { destination: string; headers: Record<string, string>; body: string }[];
    expect(sent.map((message) => message.destination)).toEqual([
      'https://esign.example.test/internal/queue/envelope.remind',
      'https://esign.example.test/internal/queue/email.signing-request',
    ]);
    expect(sent.map((message) => JSON.parse(message.body))).toEqual(messages.map((message) => message.body));
    // Not before the second it is due (rounded up), once per dedupe id, and the callback's retry count.
    expect(sent[0]!.headers).toMatchObject({
      'upstash-not-before': '1893456001',
      'upstash-deduplication-id': 'env_1.remind.1',
      'upstash-retries': String(QUEUE_RETRIES),
    });
    expect(sent[1]!.headers['upstash-not-before']).toBeUndefined();
  });

  it('gives up on a QStash that does not answer, at its deadline', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const queue = new QStashQueue({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, token: 't' }, 'https://esign.example.test', 100);
      await expect(queue.publish(messages)).rejects.toBeInstanceOf(DeadlineExceeded);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('sends nothing for no messages', async () => {
    captured.length = 0;
    await new QStashQueue({ baseUrl, token: 't' }, 'https://esign.example.test').publish([]);
    expect(captured).toEqual([]);
  });

  it("fails with QStash's error when the batch is refused, never naming the token", async () => {
    answer = { status: 401, body: JSON.stringify({ error: 'invalid token' }) };
    const error = await new QStashQueue({ baseUrl, token: 'secret-qstash-token' }, 'https://esign.example.test').publish(messages).catch((err: unknown) => err);
    expect(String((error as Error).message)).toContain('invalid token');
    expect(String((error as Error).message)).not.toContain('secret-qstash-token');
  });
});

describe("@upstash/qstash's Receiver over the signatures QStash (and its stand-in) makes", () => {
  const keys = { current: 'sig_current_0123456789', next: 'sig_next_0123456789' };
  const receiver = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next });
  const url = 'https://esign.example.test/internal/queue/envelope.remind';
  const body = JSON.stringify({ envelope_id: 'env_1', note: 'é ✓' });

  const cases: [name: string, expected: boolean, delivery: () => Promise<{ signature: string; body: string; url: string }>][] = [
    ['signed with the current key', true, async () => ({ signature: await qstashSignature(keys.current, url, body), body, url })],
    ['signed with the next key (a rotation)', true, async () => ({ signature: await qstashSignature(keys.next, url, body), body, url })],
    ['signed with another key', false, async () => ({ signature: await qstashSignature('sig_someone_else_0123', url, body), body, url })],
    ['for another URL', false, async () => ({ signature: await qstashSignature(keys.current, `${url}x`, body), body, url })],
    ['over another body', false, async () => ({ signature: await qstashSignature(keys.current, url, body, { signedBody: `${body} ` }), body, url })],
    ['expired', false, async () => ({ signature: await qstashSignature(keys.current, url, body, { expiresIn: -60 }), body, url })],
    ['from another issuer', false, async () => ({ signature: await qstashSignature(keys.current, url, body, { issuer: 'Someone' }), body, url })],
    ['not a token', false, async () => ({ signature: 'not.a.token', body, url })],
    [
      'unsigned (alg none)',
      false,
      async () => {
        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const claims = JSON.parse(Buffer.from((await qstashSignature(keys.current, url, body)).split('.')[1]!, 'base64url').toString());
        return { signature: `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`, body, url };
      },
    ],
  ];

  it.each(cases)('judges a delivery %s', async (_name, expected, make) => {
    const delivery = await make();
    // As the callback asks it (src/http/queue-callback.ts): a refusal may be a throw.
    expect(await receiver.verify(delivery).catch(() => false)).toBe(expected);
  });
});
