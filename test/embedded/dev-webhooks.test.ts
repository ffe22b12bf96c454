/**
 * The embedded server's webhook inbox: it keeps what is posted to it, checks signatures with the
 * subscriptions' secrets as a subscriber would, answers the status asked for, shows it all escaped
 * and never the secret; and it receives the service's own deliveries over real HTTP.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newWebhookSecret, signWebhook } from '../../src/domain/webhooks/standard-webhooks.js';
import { devWebhookRoutes, type InboxDelivery } from '../../src/dev-pages/webhook-inbox-page.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let subscription: { id: string; secret: string };

beforeAll(async () => {
  stack = await openStack();
  stack.app.route('/dev', devWebhookRoutes(stack.services));
  company = await createTestCompany(stack);
  subscription = await subscribe(company, `${BASE_URL}/dev/webhooks/inbox`, ['envelope.sent']);
});
afterAll(() => stack.close());

async function subscribe(owner: TestCompany, url: string, events: string[]) {
  const answer = await call(stack, 'POST', '/v1/webhooks', { token: owner.owner.token, body: { url, events } });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; secret: string };
}
const now = () => Math.floor(Date.now() / 1000);

/** Posts a delivery to the inbox as the service would, signed with `secret` at `timestamp`. */
async function deliver(path: string, payload: unknown, options: { secret?: string; timestamp?: number } = {}) {
  const id = `evt_${unique()}`;
  const timestamp = options.timestamp ?? now();
  const body = JSON.stringify(payload);
  const signature = await signWebhook(options.secret ?? subscription.secret, id, timestamp, body);
  const answer = await call(stack, 'POST', path, {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
  });
  return { id, answer };
}

const listed = async (): Promise<InboxDelivery[]> => (await call(stack, 'GET', '/dev/webhooks.json')).body.data;
const listedAs = async (webhookId: string) => (await listed()).find((delivery) => delivery.webhook_id === webhookId);
const sent = () => ({ type: 'envelope.sent', timestamp: new Date().toISOString(), data: { envelope: { id: `env_${unique()}` } } });

describe('the webhook inbox', () => {
  it('keeps a correctly signed delivery as verified by its subscription', async () => {
    const { id, answer } = await deliver('/dev/webhooks/inbox', sent());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true });
    expect(await listedAs(id)).toMatchObject({
      path: '/dev/webhooks/inbox',
      event_type: 'envelope.sent',
      answered_status: 200,
      verified: true,
      subscription_id: subscription.id,
      verification_error: null,
    });
    expect((await listed())[0]!.webhook_id).toBe(id);
  });

  it('keeps a delivery with a wrong signature as not verified, with the reason', async () => {
    const { id, answer } = await deliver('/dev/webhooks/inbox', sent(), { secret: newWebhookSecret() });
    expect(answer.status).toBe(200);
    expect(await listedAs(id)).toMatchObject({ verified: false, subscription_id: null, verification_error: expect.stringMatching(/signature/i) });
  });

  it('does not verify a delivery signed ten minutes ago', async () => {
    const { id } = await deliver('/dev/webhooks/inbox', sent(), { timestamp: now() - 600 });
    expect(await listedAs(id)).toMatchObject({ verified: false, verification_error: expect.stringMatching(/too old/i) });
  });

  it('says so when no subscription has the URL', async () => {
    const { id } = await deliver('/dev/webhooks/inbox/nobody', sent());
    expect(await listedAs(id)).toMatchObject({ verified: false, verification_error: expect.stringContaining(`${BASE_URL}/dev/webhooks/inbox/nobody`) });
  });

  it('verifies a named inbox with its own subscription', async () => {
    const other = await createTestCompany(stack);
    const named = await subscribe(other, `${BASE_URL}/dev/webhooks/inbox/orders`, ['envelope.signed']);
    const { id } = await deliver('/dev/webhooks/inbox/orders', sent(), { secret: named.secret });
    expect(await listedAs(id)).toMatchObject({ path: '/dev/webhooks/inbox/orders', verified: true, subscription_id: named.id });
  });

  it('answers the status asked for, and still keeps the delivery', async () => {
    const failing = await deliver('/dev/webhooks/inbox?status=500', sent());
    expect(failing.answer.status).toBe(500);
    expect(await listedAs(failing.id)).toMatchObject({ path: '/dev/webhooks/inbox?status=500', answered_status: 500, verified: true });
    expect((await deliver('/dev/webhooks/inbox?status=410', sent())).answer.status).toBe(410);
    // Out of range: the inbox answers as usual.
    expect((await deliver('/dev/webhooks/inbox?status=99', sent())).answer.status).toBe(200);
    // The status may be part of the subscribed URL too.
    const flaky = await subscribe(await createTestCompany(stack), `${BASE_URL}/dev/webhooks/inbox/flaky?status=503`, ['envelope.sent']);
    const retried = await deliver('/dev/webhooks/inbox/flaky?status=503', sent(), { secret: flaky.secret });
    expect(retried.answer.status).toBe(503);
    expect(await listedAs(retried.id)).toMatchObject({ verified: true, subscription_id: flaky.id });
  });

  it('shows deliveries on a page, escaped, with a document cut short', async () => {
    const { id } = await deliver('/dev/webhooks/inbox', { ...sent(), data: { note: '<script>alert(1)</script>' } });
    const pdf = 'JVBERi0xLjcK'.repeat(1000);
    const ready = await deliver('/dev/webhooks/inbox', { type: 'envelope.document_ready', data: { document: { content_base64: pdf } } });
    const page = await call(stack, 'GET', '/dev/webhooks');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const text = page.body as string;
    expect(text).toContain(id);
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).not.toContain('<script');
    expect(text).toContain(`${pdf.slice(0, 200)}…`);
    expect(text).toContain(`&quot;content_base64_length&quot;: ${pdf.length}`);
    expect(text).not.toContain(pdf.slice(0, 201));
    expect((await listedAs(ready.id))?.body).toMatchObject({ data: { document: { content_base64_length: pdf.length } } });
  });

  it('never shows a secret', async () => {
    await deliver('/dev/webhooks/inbox', sent());
    const secretBytes = subscription.secret.replace(/^whsec_/, '');
    for (const path of ['/dev/webhooks.json', '/dev/webhooks']) {
      const { body } = await call(stack, 'GET', path);
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      expect(text).not.toContain(secretBytes);
      expect(text).not.toContain('secret_ciphertext');
    }
  });
});

describe('the service delivering to the inbox', () => {
  let server: ServerType | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('receives a verified envelope.sent when an envelope is sent', async () => {
    // Deliveries are real HTTP requests, so the app listens on a real port for this one.
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: stack.app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => resolve(info.port));
    });
    const sender = await createTestCompany(stack);
    const template = await createTestTemplate(stack, sender.id);
    const hook = await subscribe(sender, `http://127.0.0.1:${port}/dev/webhooks/inbox/chain`, ['envelope.sent']);
    const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
      token: sender.owner.token,
      body: {
        template_id: template.id,
        recipients: [
          { role: 'Client', name: 'Cleo Client', email: `client-${unique()}@example.test` },
          { role: 'Witness', name: 'Walt Witness', email: `witness-${unique()}@example.test` },
        ],
      },
    });
    expect(answer.status).toBe(201);
    await vi.waitFor(
      async () => {
        const delivery = (await listed()).find((entry) => entry.subscription_id === hook.id);
        expect(delivery).toMatchObject({ path: '/dev/webhooks/inbox/chain', event_type: 'envelope.sent', verified: true, answered_status: 200 });
        expect(delivery?.body).toMatchObject({ type: 'envelope.sent', data: { envelope: { envelope_id: answer.body.envelope_id } } });
      },
      { timeout: 15_000, interval: 100 },
    );
    const first = (await listed()).find((entry) => entry.subscription_id === hook.id)!;
    expect(first).toMatchObject({ repeat: false, signatures: 1, sequence: 1 });

    // After a rotation, a replay of the event: the inbox marks it a repeat, signed under both secrets.
    const rotated = await call(stack, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: sender.owner.token });
    expect(rotated.status).toBe(200);
    const replayed = await call(stack, 'POST', `/v1/webhooks/${hook.id}/replay`, {
      token: sender.owner.token,
      body: { since: new Date(stack.clock.now().getTime() - 60_000).toISOString() },
    });
    expect(replayed.body).toEqual({ replayed: 1 });
    await vi.waitFor(
      async () => {
        const again = (await listed()).filter((entry) => entry.webhook_id === first.webhook_id);
        expect(again).toHaveLength(2);
        expect(again[0]).toMatchObject({ verified: true, subscription_id: hook.id, repeat: true, signatures: 2, sequence: 1 });
      },
      { timeout: 15_000, interval: 100 },
    );
    const page = (await call(stack, 'GET', '/dev/webhooks')).body as string;
    expect(page).toContain('2 signatures');
    expect(page).toContain('repeat');
  });
});
