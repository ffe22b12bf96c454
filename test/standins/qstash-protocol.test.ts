/**
 * The Worker's own QStash publisher and signature check, side by side with @upstash/qstash's
 * Client and Receiver: the same batch request on the wire, and the same verdict on every delivery.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Receiver } from '@upstash/qstash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QStashQueue } from '../../src/adapters/production/qstash-queue.js';
import { QStashReceiver } from '../../src/adapters/production/qstash-receiver.js';
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

  it("sends what @upstash/qstash's batchJSON sends, but its telemetry headers", async () => {
    captured.length = 0;
    answer = { status: 201, body: JSON.stringify(messages.map(() => ({ messageId: 'msg' }))) };
    await new QStashQueue({ baseUrl, token: 'qstash-token' }, 'https://esign.example.test').publish(messages);
    await new Client({ baseUrl, token: 'qstash-token' }).batchJSON(
      messages.map((message) => ({
        url: `https://esign.example.test/internal/queue/${message.topic}`,
        body: message.body,
        retries: 5,
        ...(message.notBefore ? { notBefore: Math.ceil(message.notBefore.getTime() / 1000) } : {}),
        ...(message.dedupeId ? { deduplicationId: message.dedupeId } : {}),
      })),
    );
    const [ours, theirs] = captured;
    expect([ours!.method, ours!.path]).toEqual(['POST', '/v2/batch']);
    expect([theirs!.method, theirs!.path]).toEqual(['POST', '/v2/batch']);
    expect(ours!.headers.authorization).toBe('Bearer qstash-token');
    const withoutTelemetry = (body: string) =>
      (JSON.parse(body) as { headers: Record<string, string> }[]).map((message) => ({
        ...message,
        headers: Object.fromEntries(Object.entries(message.headers).filter(([name]) => !name.startsWith('upstash-telemetry'))),
      }));
    expect(withoutTelemetry(ours!.body)).toEqual(withoutTelemetry(theirs!.body));
    expect(JSON.parse(ours!.body)[0].headers['upstash-not-before']).toBe('1893456001');
  });

  it('sends nothing for no messages', async () => {
    captured.length = 0;
    await new QStashQueue({ baseUrl, token: 't' }, 'https://esign.example.test').publish([]);
    expect(captured).toEqual([]);
  });

  it("fails with QStash's status and error when the batch is refused, never naming the token", async () => {
    answer = { status: 401, body: JSON.stringify({ error: 'invalid token' }) };
    const error = await new QStashQueue({ baseUrl, token: 'secret-qstash-token' }, 'https://esign.example.test').publish(messages).catch((err: unknown) => err);
    expect(String((error as Error).message)).toBe('QStash refused the batch: 401 invalid token');
    expect(String((error as Error).message)).not.toContain('secret-qstash-token');
  });
});

describe('QStashReceiver: the signature check', () => {
  const keys = { current: 'sig_current_0123456789', next: 'sig_next_0123456789' };
  const ours = new QStashReceiver(keys);
  const theirs = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next });
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
    ['unsigned (alg none)', false, async () => {
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const claims = JSON.parse(Buffer.from((await qstashSignature(keys.current, url, body)).split('.')[1]!, 'base64url').toString());
      return { signature: `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`, body, url };
    }],
  ];

  it.each(cases)('gives the verdict @upstash/qstash gives to a delivery %s', async (_name, expected, make) => {
    const delivery = await make();
    expect(await ours.verify(delivery)).toBe(expected);
    expect(await theirs.verify(delivery).catch(() => false)).toBe(expected);
  });
});
