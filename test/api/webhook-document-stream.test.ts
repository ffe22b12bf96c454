/**
 * envelope.document_ready carries the finished PDF streamed: what the subscriber receives verifies
 * with the Standard Webhooks library, decodes to the stored PDF byte for byte, and has the length
 * its Content-Length says; a PDF that changes between the signing pass and the sending pass is
 * never delivered; and the memory a delivery takes does not grow with the PDF.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { envelopes, webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../src/data/schema.js';
import { attemptDelivery, ownDeliveryId } from '../../src/domain/webhooks/deliver-event.js';
import type { DocumentStore } from '../../src/ports/document-store.js';
import type { Services } from '../../src/services.js';
import { createTestCompany, sendTestEnvelope } from '../support/factories.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

type Received = { headers: IncomingHttpHeaders; body: Buffer | null; length: number; complete: boolean };
let stack: TestStack;
let server: Server;
let base: string;
const received = new Map<string, Received>();
/** Paths whose bodies the subscriber counts without keeping, as a subscriber streaming to disk would. */
const notKept = new Set<string>();
/** Paths the subscriber answers with a redirect to the cloud's metadata address. */
const redirecting = new Set<string>();

beforeAll(async () => {
  stack = await openStack();
  server = createServer((req, res) => {
    const path = req.url ?? '';
    const arrived: Received = { headers: req.headers, body: null, length: 0, complete: false };
    received.set(path, arrived);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      arrived.length += chunk.byteLength;
      if (!notKept.has(path)) chunks.push(chunk);
    });
    req.on('end', () => {
      arrived.complete = true;
      if (!notKept.has(path)) arrived.body = Buffer.concat(chunks);
      if (redirecting.has(path)) {
        res.statusCode = 302;
        res.setHeader('location', 'http://169.254.169.254/latest/meta-data');
      }
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

/** A completed envelope whose finished PDF is `bytes`, its document_ready event, and a subscription to it. */
async function documentReady(bytes: Uint8Array) {
  stack.services.config.allowPrivateWebhookTargets = true;
  const company = await createTestCompany(stack);
  const path = `/hooks/${unique()}`;
  const hook = await call(stack, 'POST', '/v1/webhooks', { token: company.owner.token, body: { url: `${base}${path}`, events: ['envelope.document_ready'] } });
  expect(hook.status).toBe(201);
  const { envelopeId } = await sendTestEnvelope(stack, company);
  const stored = await stack.services.documents.put(bytes, { maxBytes: 64 * MiB });
  const { db } = stack.services.database;
  await db
    .update(envelopes)
    .set({ signedDocumentKey: stored.key, signedDocumentSize: stored.size, signedDocumentSha256: stored.sha256, status: 'completed' })
    .where(eq(envelopes.id, envelopeId));
  const [event] = await db
    .insert(webhookEvents)
    .values({
      id: `msg_document_ready_${envelopeId}`,
      companyId: company.id,
      envelopeId,
      kind: 'envelope.document_ready',
      payload: { envelope: { envelope_id: envelopeId }, document: { file_name: 'contract-signed.pdf', sha256: stored.sha256, size: stored.size } },
    })
    .returning();
  const subscription = async () => (await db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, hook.body.id)))[0]!;
  const deliver = async (services: Services = stack.services) =>
    attemptDelivery(services, event!, await subscription(), { id: await ownDeliveryId(event!.id, hook.body.id), origin: 'event' });
  return { company, hook: hook.body as { id: string; secret: string }, path, event: event!, stored, deliver };
}

/** Bytes that look like a PDF and differ everywhere, so a misplaced byte shows. */
function pdfOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 131 + (i >> 8)) & 0xff;
  bytes.set(new TextEncoder().encode('%PDF-1.7\n').subarray(0, size));
  return bytes;
}

const verified = (secret: string, arrived: Received) =>
  new Webhook(secret).verify(arrived.body!.toString('utf8'), {
    'webhook-id': String(arrived.headers['webhook-id']),
    'webhook-timestamp': String(arrived.headers['webhook-timestamp']),
    'webhook-signature': String(arrived.headers['webhook-signature']),
  }) as { type: string; data: { document: Record<string, unknown> } };

it.each([
  ['a multiple of three', 3 * 1000],
  ['one past a multiple of three', 3 * 1000 + 1],
  ['two past a multiple of three', 3 * 1000 + 2],
  ['of a few MiB', 3 * MiB + 1],
  ['empty', 0],
])('delivers a finished PDF %s: signed, whole, its Content-Length right', async (_, size) => {
  const bytes = pdfOf(size);
  const ready = await documentReady(bytes);
  expect(await ready.deliver()).toMatchObject({ delivered: true, statusCode: 200 });
  const arrived = received.get(ready.path)!;
  expect(arrived.complete).toBe(true);
  expect(Number(arrived.headers['content-length'])).toBe(arrived.body!.byteLength);
  expect(arrived.headers['transfer-encoding']).toBeUndefined();
  const payload = verified(ready.hook.secret, arrived);
  expect(payload.type).toBe('envelope.document_ready');
  expect(Object.keys(payload.data.document).sort()).toEqual(['content_base64', 'download_url', 'file_name', 'sha256', 'size']);
  expect(payload.data.document).toMatchObject({ file_name: 'contract-signed.pdf', sha256: ready.stored.sha256, size });
  expect(payload.data.document.download_url).toEqual(expect.stringContaining(ready.event.envelopeId!));
  expect(Buffer.from(payload.data.document.content_base64 as string, 'base64').equals(Buffer.from(bytes))).toBe(true);
  expect(payload.data.document.content_base64).toBe(Buffer.from(bytes).toString('base64'));
});

it('signs with both secrets during a rotation, each signature verifying', async () => {
  const ready = await documentReady(pdfOf(10_000));
  const rotated = await call(stack, 'POST', `/v1/webhooks/${ready.hook.id}/rotate-secret`, { token: ready.company.owner.token });
  expect(rotated.status).toBe(200);
  expect(await ready.deliver()).toMatchObject({ delivered: true });
  const arrived = received.get(ready.path)!;
  expect(String(arrived.headers['webhook-signature']).split(' ')).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
  for (const secret of [rotated.body.secret as string, ready.hook.secret]) {
    const payload = verified(secret, arrived);
    expect(Buffer.from(payload.data.document.content_base64 as string, 'base64').byteLength).toBe(10_000);
  }
});

it('records a redirect answered to a streamed body as a redirect, not followed', async () => {
  const ready = await documentReady(pdfOf(3000));
  redirecting.add(ready.path);
  expect(await ready.deliver()).toMatchObject({ delivered: false, statusCode: null, errorType: 'redirect' });
  expect(received.get(ready.path)?.complete).toBe(true);
  expect([...received.keys()].filter((path) => path.includes('meta-data'))).toEqual([]);
});

/** The stack's store, except that from the `changedFrom`-th read on, the document reads as `changed`. */
function changingStore(documents: DocumentStore, changedFrom: number, changed: Uint8Array): DocumentStore {
  let reads = 0;
  return {
    put: (source, options) => documents.put(source, options),
    delete: (key) => documents.delete(key),
    discard: (stored) => documents.discard(stored),
    async get(key, range) {
      reads += 1;
      if (reads < changedFrom) return documents.get(key, range);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < changed.byteLength; at += 64 * 1024) controller.enqueue(changed.slice(at, at + 64 * 1024));
          controller.close();
        },
      });
      return { body, size: changed.byteLength, range: { offset: 0, length: changed.byteLength } };
    },
  };
}

it.each([
  ['changes a byte', (bytes: Uint8Array) => bytes.map((byte, i) => (i === bytes.length - 5 ? byte ^ 1 : byte))],
  ['grows', (bytes: Uint8Array) => Uint8Array.from([...bytes, 0x0a])],
  ['shrinks', (bytes: Uint8Array) => bytes.slice(0, bytes.length - 3)],
])('delivers nothing when the PDF %s between signing and sending: a failed attempt', async (_, change) => {
  const bytes = pdfOf(300_000);
  const ready = await documentReady(bytes);
  const services = { ...stack.services, documents: changingStore(stack.services.documents, 2, change(bytes)) };
  const result = await ready.deliver(services);
  expect(result).toMatchObject({ delivered: false, statusCode: null, errorType: 'network' });
  expect(result.error).toContain('the finished PDF changed');
  expect(received.get(ready.path)?.complete ?? false).toBe(false);
  const [attempt] = await stack.services.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, ready.event.id));
  expect(attempt).toMatchObject({ attempt: 1, statusCode: null, errorType: 'network' });
});

it('delivers nothing when the PDF read for the signature is not the one its row describes', async () => {
  const bytes = pdfOf(3000);
  const ready = await documentReady(bytes);
  const services = {
    ...stack.services,
    documents: changingStore(
      stack.services.documents,
      1,
      bytes.map((byte) => byte ^ 0xff),
    ),
  };
  expect(await ready.deliver(services)).toMatchObject({ delivered: false, errorType: 'network' });
  expect(received.has(ready.path)).toBe(false);
});

/** The stack's store, sampling the memory in use (after a collection) every MiB read. */
function samplingStore(documents: DocumentStore, samples: number[]): DocumentStore {
  return {
    ...documents,
    put: (source, options) => documents.put(source, options),
    delete: (key) => documents.delete(key),
    async get(key, range) {
      const found = await documents.get(key, range);
      if (!found) return null;
      let read = 0;
      const sampled = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (Math.floor((read + chunk.byteLength) / MiB) > Math.floor(read / MiB)) samples.push(inUse());
          read += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      return { ...found, body: found.body.pipeThrough(sampled) };
    },
  };
}

const inUse = () => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

it('delivers a 20 MiB PDF holding far less than the PDF in memory at any time', async () => {
  const size = 20 * MiB;
  const ready = await documentReady(pdfOf(size));
  notKept.add(ready.path);
  const samples: number[] = [];
  const before = inUse();
  // Forty full collections while 27 MB go out take more than the receiver's 10 seconds on a busy
  // machine: this test is about memory, so the attempt has all the time it needs.
  const config = { ...stack.services.config, webhookTimeoutMs: 300_000 };
  const result = await ready.deliver({ ...stack.services, config, documents: samplingStore(stack.services.documents, samples) });
  expect(result).toMatchObject({ delivered: true, statusCode: 200 });
  const arrived = received.get(ready.path)!;
  expect(arrived.length).toBe(Number(arrived.headers['content-length']));
  expect(arrived.length).toBeGreaterThan((size * 4) / 3);
  // Both passes read the whole PDF: a sample at each MiB of each.
  expect(samples.length).toBe(40);
  // Held whole, the PDF would cost its size several times over (bytes, base64, the JSON string);
  // streamed, a few chunks in flight, whatever the PDF's size.
  // Measured from the least in use, before or during: what the first collection left is no growth.
  expect(Math.max(...samples) - Math.min(before, ...samples)).toBeLessThan(size / 2);
});
