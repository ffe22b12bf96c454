/**
 * Webhooks on workerd, QStash delivering, over the real PostgreSQL and Redis, as an integrator
 * would follow the README: subscribe an endpoint, send the demo envelope, have it signed through
 * the page, and receive each event, verified with the standardwebhooks package, the last one with
 * the finished PDF matching its hash, and its download link serving the same PDF. The endpoint
 * fails every event twice before taking it. Then a replay brings envelope.sent back. And the
 * bounds a company meets there: 25 subscriptions, 20 replays a day, one redelivery of an event at
 * a time, each counted by the production stack.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { api, newCompany } from './client.js';
import { sendAndSignSeededNda } from './signing-client.js';

type Delivery = { headers: IncomingHttpHeaders; body: string };
let receiver: Server;
let url: string;
const deliveries: Delivery[] = [];
const failures = new Map<string, number>();
/** What reached the receiver under /bounds/, taken at once unless `holding` is set. */
const bounded: Delivery[] = [];
let holding: Promise<void> | null = null;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (req.url?.startsWith('/bounds/')) {
        bounded.push(delivery);
        await holding;
        res.statusCode = 200;
        res.end();
        return;
      }
      deliveries.push(delivery);
      // Every event fails twice before it is taken: the schedule must still bring each one.
      const id = String(req.headers['webhook-id']);
      const failed = failures.get(id) ?? 0;
      failures.set(id, failed + 1);
      res.statusCode = failed < 2 ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/esign`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('webhooks on workerd', () => {
  it('delivers sent, viewed, signed, completed and document_ready to a subscriber that fails twice, each verified', async () => {
    const token = inject('acmeSenderToken');
    const startedAt = Date.now();
    const subscribed = await api('POST', '/v1/webhooks', {
      token,
      body: { url, events: ['envelope.sent', 'envelope.viewed', 'envelope.signed', 'envelope.completed', 'envelope.document_ready'] },
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
    const verifier = new Webhook(subscribed.body.secret);

    const { envelopeId } = await sendAndSignSeededNda(token);

    /** The events of this envelope that the receiver accepted, verified. */
    const accepted = () =>
      deliveries
        .filter((delivery) => (failures.get(String(delivery.headers['webhook-id'])) ?? 0) >= 3)
        .map((delivery) => ({ delivery, event: verifier.verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: any } }))
        .filter(({ event }) => event.data.envelope?.envelope_id === envelopeId);
    const kinds = () => [...new Set(accepted().map(({ event }) => event.type))].sort();
    await vi.waitFor(() => expect(kinds()).toEqual(['envelope.completed', 'envelope.document_ready', 'envelope.sent', 'envelope.signed', 'envelope.viewed']), {
      timeout: 60_000,
      interval: 500,
    });

    // Each event came three times, with one webhook-id, each attempt signed afresh.
    for (const { delivery } of accepted()) {
      const attempts = deliveries.filter((d) => d.headers['webhook-id'] === delivery.headers['webhook-id']);
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      for (const attempt of attempts) expect(() => verifier.verify(attempt.body, attempt.headers as Record<string, string>)).not.toThrow();
    }
    const signers = accepted().filter(({ event }) => event.type === 'envelope.signed');
    expect(new Set(signers.map(({ event }) => event.data.recipient.name))).toEqual(new Set(['Cleo Client', 'Will Witness']));

    const ready = accepted().find(({ event }) => event.type === 'envelope.document_ready')!.event.data.document;
    const pdf = Buffer.from(ready.content_base64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBe(ready.size);
    expect(Buffer.from(await crypto.subtle.digest('SHA-256', pdf)).toString('hex')).toBe(ready.sha256);
    const stored = await fetch(`${inject('e2eBaseUrl')}/admin/v1/envelopes/${envelopeId}/document`, {
      headers: { authorization: `Bearer ${inject('e2eAdminToken')}` },
    });
    expect(stored.headers.get('x-document-sha256')).toBe(ready.sha256);
    for (const { delivery } of accepted()) expect(delivery.body).not.toContain('/sign/');

    // Each event has its place in the envelope's history: sent first, document_ready last.
    const sequenceOf = (type: string) => accepted().find(({ event }) => event.type === type)!.event.data.sequence as number;
    expect(sequenceOf('envelope.sent')).toBe(1);
    expect(sequenceOf('envelope.document_ready')).toBe(new Set(accepted().map(({ delivery }) => delivery.headers['webhook-id'])).size);

    // The download link: the same PDF, with no other credential, and its signature never in the log.
    const download = await fetch(ready.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await crypto.subtle.digest('SHA-256', await download.arrayBuffer())).toString('hex')).toBe(ready.sha256);
    const bent = await fetch(ready.download_url.replace(envelopeId, `env_${'A'.repeat(22)}`));
    expect(bent.status).toBe(404);
    const sig = new URL(ready.download_url).searchParams.get('sig')!;
    await vi.waitFor(async () => expect(await readFile(inject('e2eDevLogPath'), 'utf8')).toContain(`/v1/documents/env_${'A'.repeat(22)}`), {
      timeout: 10_000,
      interval: 200,
    });
    expect((await readFile(inject('e2eDevLogPath'), 'utf8')).includes(sig)).toBe(false);

    // Listed before the replay below, whose deliveries come first in the list.
    const listed = await api('GET', `/v1/webhooks/${subscribed.body.id}/deliveries?per_page=100`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.filter((d: { delivered: boolean }) => d.delivered).length).toBeGreaterThanOrEqual(6);
    expect(listed.body.data.filter((d: { status_code: number }) => d.status_code === 500).length).toBeGreaterThanOrEqual(12);

    // A replay of the window brings envelope.sent back through QStash, with its original webhook-id.
    // The window opens as this test began: the company's other envelopes, sent by the suites before
    // it, would be replayed to this subscriber too.
    const sentId = accepted().find(({ event }) => event.type === 'envelope.sent')!.delivery.headers['webhook-id'];
    const before = deliveries.filter((d) => d.headers['webhook-id'] === sentId).length;
    const replayed = await api('POST', `/v1/webhooks/${subscribed.body.id}/replay`, {
      token,
      body: { since: new Date(startedAt).toISOString(), events: ['envelope.sent'] },
    });
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(202);
    expect(replayed.body.replayed).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => expect(deliveries.filter((d) => d.headers['webhook-id'] === sentId).length).toBeGreaterThan(before), {
      timeout: 60_000,
      interval: 500,
    });
    const again = deliveries.filter((d) => d.headers['webhook-id'] === sentId).at(-1)!;
    expect(
      (verifier.verify(again.body, again.headers as Record<string, string>) as { data: { envelope: { envelope_id: string } } }).data.envelope.envelope_id,
    ).toBe(envelopeId);

    expect((await api('DELETE', `/v1/webhooks/${subscribed.body.id}`, { token })).status).toBe(204);
  });

  it('keeps a company to 25 subscriptions, 20 replays a day and one redelivery of an event at a time', async () => {
    const { token } = (await newCompany()).owner;
    const base = new URL(url).origin;
    const made: { id: string }[] = [];
    for (let i = 0; i < 25; i++) {
      const answer = await api('POST', '/v1/webhooks', { token, body: { url: `${base}/bounds/${i}`, events: ['envelope.sent'] } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      made.push(answer.body);
    }
    const past = await api('POST', '/v1/webhooks', { token, body: { url: `${base}/bounds/25`, events: ['envelope.sent'] } });
    expect([past.status, past.body.error?.code]).toEqual([422, 'webhook_limit_reached']);
    expect((await api('DELETE', `/v1/webhooks/${made[24]!.id}`, { token })).status).toBe(204);
    const slash = await api('POST', '/v1/webhooks', { token, body: { url: `${base}/bounds/0/?`, events: ['envelope.sent'] } });
    expect([slash.status, slash.body.error?.code, slash.body.error?.details.webhook_id]).toEqual([409, 'webhook_exists', made[0]!.id]);

    // A redelivery goes through QStash; while the receiver holds it, another of the event is refused.
    const hook = made[0]!.id;
    const tested = await api('POST', `/v1/webhooks/${hook}/test`, { token });
    expect([tested.status, tested.body.delivered]).toEqual([200, true]);
    let release!: () => void;
    holding = new Promise((resolve) => (release = resolve));
    const redeliver = () => api('POST', `/v1/webhooks/${hook}/deliveries/${tested.body.delivery_id}/redeliver`, { token });
    const first = await redeliver();
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    await vi.waitFor(() => expect(bounded.filter((d) => d.headers['webhook-id'] === tested.body.event_id)).toHaveLength(2), { timeout: 30_000, interval: 200 });
    const again = await redeliver();
    expect([again.status, again.body.error?.code, again.body.error?.details.delivery_id]).toEqual([409, 'delivery_pending', first.body.delivery_id]);
    release();
    holding = null;
    // Once the redelivery is recorded as delivered, the event may be redelivered again.
    await vi.waitFor(
      async () => {
        const listed = await api('GET', `/v1/webhooks/${hook}/deliveries`, { token });
        expect(listed.body.data.find((d: { delivery_id: string }) => d.delivery_id === first.body.delivery_id)?.delivered).toBe(true);
      },
      { timeout: 30_000, interval: 200 },
    );
    await vi.waitFor(async () => expect((await redeliver()).status).toBe(202), { timeout: 30_000, interval: 500 });

    // Replays, across the company's subscriptions: an empty window ends at once; the 21st of the day is refused.
    const since = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < 20; i++) {
      const replayed = await api('POST', `/v1/webhooks/${made[i % 4]!.id}/replay`, { token, body: { since } });
      expect(replayed.status, JSON.stringify(replayed.body)).toBe(202);
    }
    const refused = await api('POST', `/v1/webhooks/${made[5]!.id}/replay`, { token, body: { since } });
    expect([refused.status, refused.body.error?.code]).toEqual([429, 'rate_limited']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
  });
});
