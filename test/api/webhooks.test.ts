/**
 * Webhook subscriptions and their deliveries: the endpoints, the bad input each refuses, the
 * secret kept sealed, and delivery against a real local subscriber that succeeds, fails, times out,
 * redirects, goes away (410) or stays down for the whole schedule.
 *
 * One file although long: the subscriptions and their deliveries share one local subscriber and
 * one stack.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelopes, webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../src/data/schema.js';
import { DELIVERY_ATTEMPTS, ownDeliveryId } from '../../src/domain/webhooks/deliver-event.js';
import { deliverWebhookEvent } from '../../src/domain/webhooks/dispatch-event.js';
import { eventKinds } from '../../src/domain/webhooks/event-catalog.js';
import { runConsumer } from '../../src/queue/consumers.js';
import { call, errorCode } from '../support/http.js';
import { addKeyHolder, createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { openStack, type TestStack } from '../support/stack.js';
import { drained, outboxRelayed } from '../support/drained.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
type Received = { headers: IncomingHttpHeaders; body: string; path: string };
let server: Server;
let received: Received[] = [];
/** What the subscriber answers, in turn; the last one repeats. */
let answers: number[] = [200];
let delayMs = 0;
let base: string;

beforeAll(async () => {
  stack = await openStack();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      const status = answers.length > 1 ? answers.shift()! : answers[0]!;
      // A subscriber as slow as a test asks (`delayMs`), to try the delivery's own deadline.
      setTimeout(() => {
        if (status >= 300 && status < 400) res.setHeader('location', 'http://169.254.169.254/latest/meta-data');
        res.statusCode = status;
        res.end('ok');
      }, delayMs);
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
beforeEach(() => {
  received = [];
  answers = [200];
  delayMs = 0;
  stack.services.config.allowPrivateWebhookTargets = true;
  stack.services.config.webhookTimeoutMs = undefined;
});

const hookUrl = () => `${base}/hooks/${unique()}`;
const create = (company: TestCompany, body: unknown, token = company.owner.token) => call(stack, 'POST', '/v1/webhooks', { token, body });

/** Standard Webhooks, computed independently of the service's own code. */
function signatureOf(secret: string, id: string, timestamp: string, body: string) {
  return `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64')}`;
}

describe('the event catalog', () => {
  it('lists every kind with a one-line description', async () => {
    const company = await createTestCompany(stack);
    const answer = await call(stack, 'GET', '/v1/webhooks/events', { token: company.owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((entry: { type: string }) => entry.type)).toEqual([
      'envelope.sent',
      'envelope.viewed',
      'envelope.signed',
      'envelope.declined',
      'envelope.voided',
      'envelope.expired',
      'envelope.completed',
      'envelope.document_ready',
    ]);
    for (const entry of answer.body.data) expect(entry.description).toMatch(/^[A-Z].+\.$/);
  });

  it('documents each event with its payload in the OpenAPI webhooks section', async () => {
    const document = (await call(stack, 'GET', '/v1/openapi.json')).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...eventKinds, 'webhook.test'].sort());
    const sent = document.webhooks['envelope.sent'].post;
    expect(sent.requestBody.content['application/json'].schema).toBeDefined();
    expect(sent.parameters.map((p: { name: string }) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    for (const path of [
      '/v1/webhooks',
      '/v1/webhooks/events',
      '/v1/webhooks/{id}',
      '/v1/webhooks/{id}/deliveries',
      '/v1/webhooks/{id}/test',
      '/v1/webhooks/{id}/replay',
      '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
      '/v1/webhooks/{id}/rotate-secret',
      '/v1/documents/{envelope_id}',
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
    // The download link and the sequence number are part of the events' one data shape.
    const data = document.components.schemas.WebhookEventData;
    expect(Object.keys(data.properties)).toContain('sequence');
    expect(Object.keys(data.properties.document.properties)).toEqual(['file_name', 'sha256', 'size', 'content_base64', 'download_url']);
    // The link is the credential: the document says the route takes no bearer token.
    expect(document.paths['/v1/documents/{envelope_id}'].get.security).toEqual([]);
    expect(Object.keys(document.paths['/v1/webhooks/{id}/replay'].post.responses).sort()).toEqual(['202', '401', '403', '404', '409', '413', '422', '429']);
  });
});

describe('subscribing', () => {
  it('answers 201 with the subscription and its secret, shown once; stores it sealed; lists it without', async () => {
    const company = await createTestCompany(stack);
    const url = hookUrl();
    const answer = await create(company, { url, events: ['envelope.sent', 'envelope.completed', 'envelope.sent'], description: 'CRM' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(String),
      url,
      events: ['envelope.sent', 'envelope.completed'],
      description: 'CRM',
      status: 'active',
      disabled_reason: null,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const secret = answer.body.secret as string;
    const rows = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.companyId, company.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret.slice(6));
    const listed = await call(stack, 'GET', '/v1/webhooks?per_page=1', { token: company.owner.token });
    expect(listed.body.pagination).toEqual({ page: 1, per_page: 1, total: 1, total_pages: 1 });
    const { secret: _shownOnce, ...record } = answer.body;
    expect(listed.body.data).toEqual([record]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it('refuses the same URL twice with 409 webhook_exists, and again allows it once removed', async () => {
    const company = await createTestCompany(stack);
    const url = hookUrl();
    const first = await create(company, { url, events: ['envelope.sent'] });
    const again = await create(company, { url, events: ['envelope.signed'] });
    expect([again.status, errorCode(again)]).toEqual([409, 'webhook_exists']);
    expect(again.body.error.details.webhook_id).toBe(first.body.id);
    expect((await call(stack, 'DELETE', `/v1/webhooks/${first.body.id}`, { token: company.owner.token })).status).toBe(204);
    expect((await create(company, { url, events: ['envelope.signed'] })).status).toBe(201);
    // Another company may subscribe the same URL.
    expect((await create(await createTestCompany(stack), { url, events: ['envelope.sent'] })).status).toBe(201);
  });

  it('stores and answers the URL in its normalised spelling, and refuses any other spelling of a subscribed endpoint', async () => {
    const company = await createTestCompany(stack);
    const path = `/hooks/${unique()}`;
    const endpoint = `http://hooks.example.com${path}`;
    const first = await create(company, { url: `HTTP://Hooks.Example.COM:80/x/..${path}`, events: ['envelope.sent'] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.url).toBe(endpoint);
    const rows = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.companyId, company.id));
    expect(rows.map((row) => row.url)).toEqual([endpoint]);
    expect((await call(stack, 'GET', '/v1/webhooks', { token: company.owner.token })).body.data.map((entry: { url: string }) => entry.url)).toEqual([endpoint]);

    for (const spelling of [
      endpoint,
      `HTTP://hooks.example.com${path}`,
      `http://hooks.example.com/x/..${path}`,
      `http://hooks.example.com:80${path}`,
      `http://HOOKS.example.com${path}`,
      `http://hooks.example.com/./%2e%2e${path}`,
    ]) {
      const again = await create(company, { url: spelling, events: ['envelope.signed'] });
      expect([again.status, errorCode(again)], spelling).toEqual([409, 'webhook_exists']);
      expect(again.body.error.details).toEqual({ url: endpoint, webhook_id: first.body.id });
    }
    // Other ports, another scheme and another path are other endpoints.
    for (const other of [`http://hooks.example.com:8080${path}`, `https://hooks.example.com${path}`, `${endpoint}/more`]) {
      expect((await create(company, { url: other, events: ['envelope.sent'] })).status, other).toBe(201);
    }
    // Another company may subscribe the same endpoint, in any spelling.
    const elsewhere = await create(await createTestCompany(stack), { url: `HTTP://hooks.example.com:80${path}`, events: ['envelope.sent'] });
    expect([elsewhere.status, elsewhere.body.url]).toEqual([201, endpoint]);
  });

  it('takes the spellings RFC 3986 makes one as one endpoint: an empty query, escaped unreserved characters, escapes in either case, a trailing or repeated slash', async () => {
    const company = await createTestCompany(stack);
    const tag = unique();
    const first = await create(company, { url: `https://hooks.example.com/d/${tag}/a?`, events: ['envelope.sent'] });
    expect([first.status, first.body.url]).toEqual([201, `https://hooks.example.com/d/${tag}/a`]);
    for (const spelling of [
      `https://hooks.example.com/d/${tag}/a`,
      `https://hooks.example.com/%64/${tag}/a`,
      `https://hooks.example.com/%64/${tag}/%61?`,
      `https://hooks.example.com/d/${tag}/a/`,
      `https://hooks.example.com/d/${tag}/a/?`,
      `https://hooks.example.com//d//${tag}/a`,
      `https://hooks.example.com/d/${tag}/b/%2E%2E/a`,
    ]) {
      const again = await create(company, { url: spelling, events: ['envelope.signed'] });
      expect([again.status, errorCode(again), again.body.error?.details.webhook_id], spelling).toEqual([409, 'webhook_exists', first.body.id]);
    }
    // Stored in its one spelling: unreserved characters decoded, other escapes in upper case; a trailing slash kept.
    const escaped = await create(company, { url: `https://hooks.example.com/%7e${tag}/x%3ay/?q=%41%2b`, events: ['envelope.sent'] });
    expect([escaped.status, escaped.body.url]).toEqual([201, `https://hooks.example.com/~${tag}/x%3Ay/?q=A%2B`]);
    for (const spelling of [`https://hooks.example.com/~${tag}/x%3Ay?q=A%2B`, `https://hooks.example.com/%7E${tag}//x%3ay?q=%41%2B`]) {
      const again = await create(company, { url: spelling, events: ['envelope.sent'] });
      expect([again.status, errorCode(again)], spelling).toEqual([409, 'webhook_exists']);
    }
    // A query that is not empty, and a reserved character escaped or not, name other endpoints.
    for (const other of [`https://hooks.example.com/d/${tag}/a?x`, `https://hooks.example.com/d/${tag}/a%2F`, `https://hooks.example.com/d/${tag}/a/b`]) {
      expect((await create(company, { url: other, events: ['envelope.sent'] })).status, other).toBe(201);
    }
  });

  it('refuses the new spellings of an endpoint stored before they were normalised, trailing slash and empty query included', async () => {
    const company = await createTestCompany(stack);
    const path = `/hooks/${unique()}`;
    const legacy = await create(company, { url: `https://hooks.example.com${path}/x`, events: ['envelope.sent'] });
    // Stored as given, before these normalisations: no endpoint key, an unnormalised URL.
    await stack.services.database.db
      .update(webhookSubscriptions)
      .set({ url: `https://hooks.example.com/%68ooks${path.slice('/hooks'.length)}/x/?`, endpoint: null })
      .where(eq(webhookSubscriptions.id, legacy.body.id));
    for (const spelling of [`https://hooks.example.com${path}/x`, `https://hooks.example.com${path}//x?`]) {
      const again = await create(company, { url: spelling, events: ['envelope.signed'] });
      expect([again.status, errorCode(again), again.body.error?.details.webhook_id], spelling).toEqual([409, 'webhook_exists', legacy.body.id]);
    }
  });

  it('keeps 25 live subscriptions per company: the 26th is 422 webhook_limit_reached; a removal makes room; another company is apart', async () => {
    const company = await createTestCompany(stack);
    const made: string[] = [];
    for (let i = 0; i < 25; i++) {
      const answer = await create(company, { url: hookUrl(), events: ['envelope.sent'] });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      made.push(answer.body.id);
    }
    const past = await create(company, { url: hookUrl(), events: ['envelope.sent'] });
    expect([past.status, errorCode(past), past.body.error.details.limit]).toEqual([422, 'webhook_limit_reached', 25]);
    // An endpoint already subscribed is still told so, with its id.
    const [first] = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, made[0]!));
    expect(errorCode(await create(company, { url: first!.url, events: ['envelope.sent'] }))).toBe('webhook_exists');
    expect((await create(await createTestCompany(stack), { url: hookUrl(), events: ['envelope.sent'] })).status).toBe(201);
    expect((await call(stack, 'DELETE', `/v1/webhooks/${made[3]}`, { token: company.owner.token })).status).toBe(204);
    expect((await create(company, { url: hookUrl(), events: ['envelope.sent'] })).status).toBe(201);
    expect(errorCode(await create(company, { url: hookUrl(), events: ['envelope.sent'] }))).toBe('webhook_limit_reached');
    const live = await stack.services.database.db
      .select()
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.companyId, company.id), isNull(webhookSubscriptions.deletedAt)));
    expect(live).toHaveLength(25);
  });

  it('gives the 25th place to one of three subscriptions made at once', async () => {
    const company = await createTestCompany(stack);
    for (let i = 0; i < 24; i++) expect((await create(company, { url: hookUrl(), events: ['envelope.sent'] })).status).toBe(201);
    const answers = await Promise.all([hookUrl(), hookUrl(), hookUrl()].map((url) => create(company, { url, events: ['envelope.sent'] })));
    expect(answers.map((answer) => `${answer.status} ${errorCode(answer) ?? ''}`.trim()).sort()).toEqual([
      '201',
      '422 webhook_limit_reached',
      '422 webhook_limit_reached',
    ]);
    const live = await stack.services.database.db
      .select()
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.companyId, company.id), isNull(webhookSubscriptions.deletedAt)));
    expect(live).toHaveLength(25);
  });

  it('refuses every numeric spelling of a subscribed IPv4 host as the same endpoint', async () => {
    const company = await createTestCompany(stack);
    const port = new URL(base).port;
    const path = `/hooks/${unique()}`;
    const first = await create(company, { url: `http://2130706433:${port}${path}`, events: ['envelope.sent'] });
    expect([first.status, first.body.url]).toEqual([201, `http://127.0.0.1:${port}${path}`]);
    for (const host of ['127.0.0.1', '0x7f.1', '127.1', '0177.0.0.1', '0x7f000001']) {
      const again = await create(company, { url: `http://${host}:${port}${path}`, events: ['envelope.sent'] });
      expect([again.status, errorCode(again)], host).toEqual([409, 'webhook_exists']);
    }
  });

  it('keeps one of two spellings of one endpoint subscribed at the same moment', async () => {
    const company = await createTestCompany(stack);
    const path = `/hooks/${unique()}`;
    const answers = await Promise.all(
      [`https://hooks.example.com${path}`, `HTTPS://hooks.example.com:443${path}`].map((url) => create(company, { url, events: ['envelope.sent'] })),
    );
    expect(answers.map((answer) => `${answer.status} ${errorCode(answer) ?? ''}`.trim()).sort()).toEqual(['201', '409 webhook_exists']);
    const rows = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.companyId, company.id));
    expect(rows.map((row) => row.url)).toEqual([`https://hooks.example.com${path}`]);
  });

  it('refuses a new spelling of an endpoint subscribed before URLs were normalised', async () => {
    const company = await createTestCompany(stack);
    const path = `/hooks/${unique()}`;
    const legacy = await create(company, { url: `https://hooks.example.com${path}`, events: ['envelope.sent'] });
    // A row stored as it was given, before normalisation.
    await stack.services.database.db
      .update(webhookSubscriptions)
      .set({ url: `HTTPS://Hooks.Example.com:443/x/..${path}` })
      .where(eq(webhookSubscriptions.id, legacy.body.id));
    const again = await create(company, { url: `https://hooks.example.com${path}`, events: ['envelope.signed'] });
    expect([again.status, errorCode(again)]).toEqual([409, 'webhook_exists']);
    expect(again.body.error.details.webhook_id).toBe(legacy.body.id);
  });

  it.each([
    ['not a URL', { url: 'not a url', events: ['envelope.sent'] }, 'url'],
    ['ftp', { url: 'ftp://hooks.example.com/x', events: ['envelope.sent'] }, 'url'],
    ['credentials in the URL', { url: 'https://user:pw@hooks.example.com/x', events: ['envelope.sent'] }, 'url'],
    ['2,001 characters', { url: `https://hooks.example.com/${'x'.repeat(2001 - 'https://hooks.example.com/'.length)}`, events: ['envelope.sent'] }, 'url'],
    ['a NUL byte', { url: 'https://hooks.example.com/\u0000', events: ['envelope.sent'] }, 'url'],
    [
      '2,000 characters that normalise to 2,005',
      { url: `https://hooks.example.com/\u00e9${'x'.repeat(2000 - 'https://hooks.example.com/\u00e9'.length)}`, events: ['envelope.sent'] },
      'url',
    ],
    ['an unknown kind', { url: 'https://hooks.example.com/x', events: ['envelope.exploded'] }, 'events[0]'],
    ['an empty list', { url: 'https://hooks.example.com/x', events: [] }, 'events'],
    ['no events', { url: 'https://hooks.example.com/x' }, 'events'],
    ['an unknown field', { url: 'https://hooks.example.com/x', events: ['envelope.sent'], secret: 'mine' }, 'secret'],
    ['a description of 501', { url: 'https://hooks.example.com/x', events: ['envelope.sent'], description: 'd'.repeat(501) }, 'description'],
  ])('refuses %s with validation_failed, storing nothing', async (_, body, path) => {
    const company = await createTestCompany(stack);
    const answer = await create(company, body);
    expect([answer.status, errorCode(answer)], JSON.stringify(answer.body)).toEqual([422, 'validation_failed']);
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    expect(await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.companyId, company.id))).toEqual([]);
  });

  it('accepts a URL of exactly 2,000 characters', async () => {
    const company = await createTestCompany(stack);
    const url = `https://hooks.example.com/${'x'.repeat(2000 - 'https://hooks.example.com/'.length)}`;
    expect((await create(company, { url, events: ['envelope.sent'] })).status).toBe(201);
  });

  it('refuses http, loopback, private and metadata addresses outside the embedded and dev modes', async () => {
    stack.services.config.allowPrivateWebhookTargets = false;
    const company = await createTestCompany(stack);
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.0.0.8/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/x',
      'https://[64:ff9b::a00:1]/x',
      'https://198.18.0.1/x',
      'https://100.64.0.1/x',
      'https://240.0.0.1/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[::ffff:0:a9fe:a9fe]/x',
      'https://[2002:a9fe:a9fe::1]/x',
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
      'https://192.88.99.1/x',
      'https://hooks.example.com:0/x',
    ]) {
      const answer = await create(company, { url, events: ['envelope.sent'] });
      expect([answer.status, errorCode(answer)], url).toEqual([422, 'validation_failed']);
    }
    expect((await create(company, { url: 'https://hooks.example.com/x', events: ['envelope.sent'] })).status).toBe(201);
  });
});

describe('removing', () => {
  it('answers 204, then webhook_not_found on the second delete, for another company and for a malformed id', async () => {
    const company = await createTestCompany(stack);
    const other = await createTestCompany(stack);
    const id = (await create(company, { url: hookUrl(), events: ['envelope.sent'] })).body.id;
    const remove = (path: string, token = company.owner.token) => call(stack, 'DELETE', path, { token });
    expect((await remove(`/v1/webhooks/${id}`, other.owner.token)).status).toBe(404);
    expect((await remove(`/v1/webhooks/${id}`)).status).toBe(204);
    const twice = await remove(`/v1/webhooks/${id}`);
    expect([twice.status, errorCode(twice)]).toEqual([404, 'webhook_not_found']);
    for (const bad of ['nope', crypto.randomUUID(), '%00']) expect(errorCode(await remove(`/v1/webhooks/${bad}`)), bad).toBe('webhook_not_found');
    expect((await call(stack, 'GET', '/v1/webhooks', { token: company.owner.token })).body.data).toEqual([]);
  });
});

describe('delivering', () => {
  const { expectLogged } = expectErrorLogs();
  /** A company subscribed to envelope.sent at the local subscriber, and a way to make one event. */
  async function subscribed(path = `/hooks/${unique()}`) {
    const company = await createTestCompany(stack);
    const template = await createTestTemplate(stack, company.id);
    const subscription = (await create(company, { url: `${base}${path}`, events: ['envelope.sent'] })).body;
    const sendOne = async () => {
      const tag = unique();
      const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
        token: company.owner.token,
        body: {
          template_id: template.id,
          recipients: [
            { role: 'Client', name: 'C', email: `c-${tag}@example.test` },
            { role: 'Witness', name: 'W', email: `w-${tag}@example.test` },
          ],
        },
      });
      expect(answer.status).toBe(201);
      const [event] = await stack.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, answer.body.envelope_id));
      return event!;
    };
    /** A send whose follow-ups are handed to nobody: the test runs each delivery attempt itself. */
    const quietSend = async () => {
      const original = stack.services.queue;
      stack.services.queue = { publish: async () => {} };
      try {
        const event = await sendOne();
        await outboxRelayed(stack, company.id);
        return event;
      } finally {
        stack.services.queue = original;
      }
    };
    return { company, subscription, sendOne, quietSend };
  }
  const attemptsOf = (eventId: string, subscriptionId: string) =>
    stack.services.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.subscriptionId, subscriptionId)))
      .orderBy(asc(webhookDeliveries.attempt));
  const deliver = (eventId: string, subscriptionId: string) =>
    runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: subscriptionId });

  it('delivers through the queue, signed per attempt: a 500 then a 200 is delivered, two attempts recorded', async () => {
    answers = [500, 200];
    const { subscription, sendOne } = await subscribed();
    const event = await sendOne();
    await vi.waitFor(async () => expect((await attemptsOf(event.id, subscription.id)).map((a) => a.statusCode)).toEqual([500, 200]), { timeout: 10_000 });
    const [first, second] = received.filter((r) => r.headers['webhook-id'] === event.id);
    expect(first!.body).toBe(second!.body);
    for (const attempt of [first!, second!]) {
      expect(String(attempt.headers['webhook-signature'])).toBe(
        signatureOf(subscription.secret, event.id, String(attempt.headers['webhook-timestamp']), attempt.body),
      );
    }
    const payload = JSON.parse(first!.body);
    expect(payload.type).toBe('envelope.sent');
    expect(payload.data.envelope.envelope_id).toBe(event.envelopeId);
    expect(first!.body).not.toContain('/sign/');

    const listed = await call(stack, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, { token: (await listOwner(subscription.id)).token });
    expect(listed.body.data.map((d: { attempt: number; delivered: boolean; status_code: number }) => [d.attempt, d.delivered, d.status_code])).toEqual([
      [2, true, 200],
      [1, false, 500],
    ]);
    expect(listed.body.data[1]).toMatchObject({ event_id: event.id, event_type: 'envelope.sent', error_type: 'http_status', duration_ms: expect.any(Number) });
  });

  it('records a timeout as such', async () => {
    stack.services.config.webhookTimeoutMs = 100;
    delayMs = 400;
    const { subscription, sendOne } = await subscribed();
    const event = await sendOne();
    await expect(deliver(event.id, subscription.id)).rejects.toThrow();
    const [attempt] = await attemptsOf(event.id, subscription.id);
    expect(attempt).toMatchObject({ attempt: expect.any(Number), statusCode: null, errorType: 'timeout' });
  });

  it('does not follow a redirect: recorded as such, and nothing is fetched from where it points', async () => {
    answers = [302];
    const { subscription, quietSend } = await subscribed();
    const event = await quietSend();
    await expect(deliver(event.id, subscription.id)).rejects.toThrow();
    const attempts = await attemptsOf(event.id, subscription.id);
    expect(attempts.at(-1)).toMatchObject({ statusCode: 302, errorType: 'redirect' });
  });

  it('disables a subscription that answers 410 Gone: no retry, no later event', async () => {
    answers = [410];
    const { subscription, sendOne } = await subscribed();
    const event = await sendOne();
    await vi.waitFor(async () => {
      const [row] = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, subscription.id));
      expect(row!.disabledAt).not.toBeNull();
    });
    expect((await attemptsOf(event.id, subscription.id)).map((a) => a.statusCode)).toEqual([410]);
    answers = [200];
    const later = await sendOne();
    await drained(stack);
    expect(await attemptsOf(later.id, subscription.id)).toEqual([]);
    expect(await attemptsOf(event.id, subscription.id)).toHaveLength(1);
  });

  it('ends a delivery to a subscriber down for the whole schedule failed and visible, then disables a long-dead subscription', async () => {
    answers = [503];
    const { company, subscription, quietSend } = await subscribed();
    const event = await quietSend();
    // The queue's attempts, one after another: all but the last throw so that it retries.
    for (let attempt = 1; attempt < DELIVERY_ATTEMPTS; attempt++) await expect(deliver(event.id, subscription.id)).rejects.toThrow();
    // The subscription is three days old by the last attempt, with nothing delivered: it is disabled.
    stack.clock.advance(3 * 24 * 3600 * 1000 + 1000);
    try {
      await deliver(event.id, subscription.id);
    } finally {
      stack.clock.advance(-(3 * 24 * 3600 * 1000 + 1000));
    }
    const attempts = await attemptsOf(event.id, subscription.id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(attempts.every((a) => a.statusCode === 503)).toBe(true);
    const listed = await call(stack, 'GET', '/v1/webhooks', { token: company.owner.token });
    expect(listed.body.data[0]).toMatchObject({ id: subscription.id, status: 'disabled', disabled_reason: expect.stringMatching(/3 days/) });
  });

  it('lists an attempt left without a result for 3 minutes as interrupted, one younger as still running', async () => {
    const { company, subscription, quietSend } = await subscribed();
    const event = await quietSend();
    const now = stack.clock.now().getTime();
    const open = (attempt: number, ago: number) => ({
      companyId: company.id,
      deliveryId: crypto.randomUUID(),
      eventId: event.id,
      subscriptionId: subscription.id,
      attempt,
      createdAt: new Date(now - ago),
    });
    const cut = open(6, 3 * 60 * 1000);
    const running = open(1, 3 * 60 * 1000 - 1);
    await stack.services.database.db.insert(webhookDeliveries).values([cut, running]);
    const listed = (await call(stack, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, { token: company.owner.token })).body.data;
    const shown = (deliveryId: string) => listed.find((attempt: { delivery_id: string }) => attempt.delivery_id === deliveryId);
    expect(shown(cut.deliveryId)).toMatchObject({
      status_code: null,
      delivered: false,
      error_type: 'interrupted',
      error: expect.stringMatching(/did not finish/),
    });
    expect(shown(running.deliveryId)).toMatchObject({ status_code: null, delivered: false, error_type: null, error: null });
  });

  it('closes as interrupted an attempt of the delivery left without a result when its next attempt starts', async () => {
    const { subscription, quietSend } = await subscribed();
    const event = await quietSend();
    // Attempt 1 began and its process died: a row without a result.
    await stack.services.database.db.insert(webhookDeliveries).values({
      companyId: event.companyId,
      deliveryId: await ownDeliveryId(event.id, subscription.id),
      eventId: event.id,
      subscriptionId: subscription.id,
      attempt: 1,
      createdAt: stack.clock.now(),
    });
    await deliver(event.id, subscription.id);
    const attempts = await attemptsOf(event.id, subscription.id);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.errorType])).toEqual([
      [1, null, 'interrupted'],
      [2, 200, null],
    ]);
    expect(attempts[0]!.error).toMatch(/did not finish/);
  });

  it('numbers concurrent attempts distinctly', async () => {
    answers = [500];
    const { subscription, quietSend } = await subscribed();
    const event = await quietSend();
    await Promise.allSettled(Array.from({ length: 5 }, () => deliver(event.id, subscription.id)));
    const numbers = (await attemptsOf(event.id, subscription.id)).map((a) => a.attempt);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
  });

  it('does not deliver again when recording a delivered attempt fails', async () => {
    expectLogged(/^a delivered webhook could not be recorded Error: connection reset/);
    const { subscription, quietSend } = await subscribed();
    const event = await quietSend();
    const { db } = stack.services.database;
    const update = db.update.bind(db);
    // This delivery's first update of the deliveries fails. Earlier tests' jobs may still be retrying in
    // the background and update the same table meanwhile: they are told apart by the async context.
    const thisDelivery = new AsyncLocalStorage<true>();
    let failed = false;
    const spy = vi.spyOn(db, 'update').mockImplementation((table) => {
      if (table !== webhookDeliveries || failed || !thisDelivery.getStore()) return update(table);
      failed = true;
      throw new Error('connection reset');
    });
    try {
      // The subscriber took it: the queue must see success, or it would deliver a second time.
      await expect(thisDelivery.run(true, () => deliver(event.id, subscription.id))).resolves.toBeUndefined();
      expect(failed).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(received.filter((r) => r.headers['webhook-id'] === event.id)).toHaveLength(1);
  });

  it('carries the finished PDF in envelope.document_ready, built at delivery, matching its hash', async () => {
    const { company, subscription, quietSend } = await subscribed();
    const sent = await quietSend();
    const bytes = new TextEncoder().encode('%PDF-1.7 finished');
    const sha256 = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
    const { db } = stack.services.database;
    await db.update(envelopes).set({ signedDocument: bytes, signedDocumentSha256: sha256, status: 'completed' }).where(eq(envelopes.id, sent.envelopeId!));
    await db
      .update(webhookSubscriptions)
      .set({ events: ['envelope.document_ready'] })
      .where(eq(webhookSubscriptions.id, subscription.id));
    const eventId = `msg_document_ready_${sent.envelopeId}`;
    await db.insert(webhookEvents).values({
      id: eventId,
      companyId: company.id,
      envelopeId: sent.envelopeId,
      kind: 'envelope.document_ready',
      payload: { envelope: { envelope_id: sent.envelopeId }, document: { file_name: 'x-signed.pdf', sha256, size: bytes.length } },
    });
    received = [];
    await deliver(eventId, subscription.id);
    const payload = JSON.parse(received.find((r) => r.headers['webhook-id'] === eventId)!.body);
    expect(payload.data.document).toMatchObject({ sha256, size: bytes.length, file_name: 'x-signed.pdf' });
    const decoded = Buffer.from(payload.data.document.content_base64, 'base64');
    expect(Buffer.from(await crypto.subtle.digest('SHA-256', decoded)).toString('hex')).toBe(sha256);
    // Nothing of the PDF went through the queue: the stored event holds only its hash.
    const [stored] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
    expect(JSON.stringify(stored!.payload)).not.toContain('content_base64');
  });

  it('refuses at delivery a target that became forbidden, recording it without a request', async () => {
    const { subscription, quietSend } = await subscribed();
    const event = await quietSend();
    stack.services.config.allowPrivateWebhookTargets = false;
    received = [];
    await deliver(event.id, subscription.id);
    expect(received).toEqual([]);
    expect((await attemptsOf(event.id, subscription.id)).at(-1)).toMatchObject({ statusCode: null, errorType: 'refused_target' });
  });
});

describe('test deliveries', () => {
  it('delivers a signed webhook.test now and answers its result; a failing endpoint answers its failure', async () => {
    const company = await createTestCompany(stack);
    const subscription = (await create(company, { url: hookUrl(), events: ['envelope.sent'] })).body;
    const answer = await call(stack, 'POST', `/v1/webhooks/${subscription.id}/test`, { token: company.owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ event_type: 'webhook.test', attempt: 1, delivered: true, status_code: 200, error_type: null });
    const delivery = received.find((r) => r.headers['webhook-id'] === answer.body.event_id);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: subscription.id } });
    expect(String(delivery!.headers['webhook-signature'])).toBe(
      signatureOf(subscription.secret, String(delivery!.headers['webhook-id']), String(delivery!.headers['webhook-timestamp']), delivery!.body),
    );
    answers = [500];
    stack.clock.advance(1000);
    const failing = await call(stack, 'POST', `/v1/webhooks/${subscription.id}/test`, { token: company.owner.token }).finally(() => stack.clock.advance(-1000));
    expect(failing.body).toMatchObject({ delivered: false, status_code: 500, error_type: 'http_status' });
    const listed = await call(stack, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, { token: company.owner.token });
    expect(listed.body.data.map((d: { delivered: boolean }) => d.delivered)).toEqual([false, true]);
    const stranger = await createTestCompany(stack);
    expect(errorCode(await call(stack, 'POST', `/v1/webhooks/${subscription.id}/test`, { token: stranger.owner.token }))).toBe('webhook_not_found');
    expect(errorCode(await call(stack, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, { token: stranger.owner.token }))).toBe('webhook_not_found');
  });
});

describe('bounds of the test deliveries', () => {
  /** Test events of the company made `ago` ms before now, as earlier test deliveries leave them. */
  const earlierTests = (company: TestCompany, count: number, ago: number) =>
    stack.services.database.db.insert(webhookEvents).values(
      Array.from({ length: count }, (_, i) => ({
        id: `msg_test_earlier_${unique()}_${i}`,
        companyId: company.id,
        kind: 'webhook.test' as const,
        payload: {},
        createdAt: new Date(stack.clock.now().getTime() - ago),
      })),
    );

  it('makes 60 test deliveries per company in any hour: the 61st is 429 rate_limited with Retry-After, and writes no event', async () => {
    const company = await createTestCompany(stack);
    const url = hookUrl();
    const subscription = (await create(company, { url, events: ['envelope.sent'] })).body;
    const test = (who = company) => call(stack, 'POST', `/v1/webhooks/${subscription.id}/test`, { token: who.owner.token });
    // 59 within the hour, and one exactly an hour old, which no longer counts.
    await earlierTests(company, 59, 20 * 60 * 1000);
    await earlierTests(company, 1, 3600 * 1000);
    const sixtieth = await test();
    expect([sixtieth.status, sixtieth.body.delivered]).toEqual([200, true]);
    const events = async () => (await stack.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.companyId, company.id))).length;
    const before = await events();
    const past = await test();
    expect(past.status, JSON.stringify(past.body)).toBe(429);
    expect([errorCode(past), past.body.error.details.limit]).toEqual(['rate_limited', 60]);
    // The oldest counted one leaves the hour in 40 minutes.
    expect(past.headers.get('retry-after')).toBe(String(40 * 60));
    expect(await events()).toBe(before);
    expect(received.filter((hit) => hit.headers['webhook-id'] === sixtieth.body.event_id)).toHaveLength(1);
    // Only the 60th reached the subscriber (deliveries of other tests' subscriptions may still arrive at the receiver).
    expect(received.filter((hit) => url.endsWith(hit.path))).toHaveLength(1);
  });

  it('gives the last place of the hour to one of two test deliveries made at once', async () => {
    const company = await createTestCompany(stack);
    const subscription = (await create(company, { url: hookUrl(), events: ['envelope.sent'] })).body;
    await earlierTests(company, 59, 60 * 1000);
    const answers = await Promise.all([1, 2].map(() => call(stack, 'POST', `/v1/webhooks/${subscription.id}/test`, { token: company.owner.token })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429]);
  });
});

/** A token of the company that owns a subscription (a new key holder of that company). */
async function listOwner(subscriptionId: string) {
  const [row] = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, subscriptionId));
  return addKeyHolder(stack, row!.companyId);
}
