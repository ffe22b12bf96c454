/**
 * envelope.document_ready sent by workerd: the finished PDF's body arrives with the Content-Length
 * computed before it was streamed (not chunked), that many bytes, and a signature that verifies.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { api } from './client.js';
import { sendAndSignSeededNda } from './signing-client.js';

type ReadyEvent = { data: { envelope?: { envelope_id: string }; document: { content_base64: string; size: number; sha256: string } } };
type Delivery = { headers: IncomingHttpHeaders; body: Buffer };
let receiver: Server;
let url: string;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/document`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

it('delivers the finished PDF with its Content-Length known beforehand, signed over the streamed body', async () => {
  const token = inject('acmeSenderToken');
  const subscribed = await api('POST', '/v1/webhooks', { token, body: { url, events: ['envelope.document_ready'] } });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
  const { envelopeId } = await sendAndSignSeededNda(token);
  const verifier = new Webhook(subscribed.body.secret);
  const ready = () =>
    deliveries
      .map((delivery) => ({ delivery, event: verifier.verify(delivery.body.toString('utf8'), delivery.headers as Record<string, string>) as ReadyEvent }))
      .find(({ event }) => event.data.envelope?.envelope_id === envelopeId);
  await vi.waitFor(() => expect(ready()).toBeDefined(), { timeout: 60_000, interval: 500 });
  const { delivery, event } = ready()!;
  expect(delivery.headers['transfer-encoding']).toBeUndefined();
  expect(Number(delivery.headers['content-length'])).toBe(delivery.body.byteLength);
  const pdf = Buffer.from(event.data.document.content_base64, 'base64');
  expect(pdf.length).toBe(event.data.document.size);
  expect(Buffer.from(await crypto.subtle.digest('SHA-256', pdf)).toString('hex')).toBe(event.data.document.sha256);
}, 120_000);
