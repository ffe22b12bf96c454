/**
 * One file although long: each verb, each refusal and each mistake share one receiver and one stack.
 *
 * The application's webhooks pages over the real stack, against a local receiver: owners and
 * administrators add a subscription (its secret shown on one answer only), send a test event that
 * the receiver refuses and see its answer among the deliveries, redeliver it once the receiver is
 * back, replay the events since a time, rotate the secret and delete the subscription; every role
 * sees the subscriptions and their deliveries, and a member or a viewer is refused every form and
 * forged post; another company's subscription or delivery is not found; a form with a mistake is
 * shown again and makes nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, webhookDeliveries, webhookRedeliveries, webhookReplays, webhookSubscriptions } from '../../src/data/schema.js';
import { eventKinds } from '../../src/domain/webhooks/event-catalog.js';
import { EVENT_RETENTION_MS } from '../../src/domain/webhooks/event-retention.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { SUBSCRIPTIONS_PER_COMPANY, TEST_DELIVERIES_PER_HOUR } from '../../src/domain/webhooks/webhook-bounds.js';
import { appClient, freshEmail, signIn } from '../support/app-client.js';
import { drained, outboxRelayed } from '../support/drained.js';
import { asOperator, createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
let server: Server;
let receiver: string;
/** What the receiver answers now. */
let answering = 200;
const received: string[] = [];

beforeAll(async () => {
  stack = await openStack();
  stack.services.config.allowPrivateWebhookTargets = true;
  [company, other] = [await createTestCompany(stack), await createTestCompany(stack)];
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      res.statusCode = answering;
      res.end(answering === 200 ? 'ok' : 'down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

type Role = 'owner' | 'admin' | 'member' | 'viewer';

/** A signed-in browser of `role` whose every answer is kept, to count where a secret appears. */
async function signedIn(role: Role, companyId = company.id) {
  const email = freshEmail(role);
  const { user } = await putUser(asOperator(stack, companyId), { email, input: { name: `Pat ${role}`, role, active: true, esign_seat: true } });
  const client = appClient(stack);
  expect((await signIn(stack, client, email)).status).toBe(303);
  const answers: Answer<string>[] = [];
  const keep = async (answer: Promise<Answer<string>>) => {
    const got = await answer;
    answers.push(got);
    return got;
  };
  return {
    user,
    client,
    answers,
    get: (path: string) => keep(client.get(path)),
    post: (path: string, fields: Record<string, string> = {}) => keep(client.post(path, fields)),
    /** The add form posted with its events repeated, which the client's object of fields cannot say. */
    create: async (fields: { url: string; events: string[]; description?: string }) => {
      const form = await keep(client.get('/app/webhooks/new'));
      const body = new URLSearchParams({ url: fields.url, description: fields.description ?? '' });
      for (const event of fields.events) body.append('event', event);
      body.append('form_token', /name="form_token" value="([^"]+)"/.exec(form.body)?.[1] ?? '');
      return keep(
        call<string>(stack, 'POST', '/app/webhooks', {
          rawBody: body.toString(),
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: [...client.jar].map(([name, value]) => `${name}=${value}`).join('; '),
            origin: new URL(BASE_URL).origin,
            'sec-fetch-site': 'same-origin',
            'x-test-client-ip': '198.51.100.21',
          },
        }),
      );
    },
  };
}

const subscriptionsOf = (companyId: string) =>
  stack.services.database.db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), isNull(webhookSubscriptions.deletedAt)));

const secretIn = (page: string) => /id="new-secret"[^>]* value="(whsec_[^"]+)"/.exec(page)?.[1];
const hookUrl = () => `${receiver}/hooks/${unique()}`;

/** A subscription made through the API, as a program makes one. */
async function subscribedThroughApi(of: TestCompany, events = ['envelope.sent']) {
  const made = await call(stack, 'POST', '/v1/webhooks', { token: of.owner.token, body: { url: hookUrl(), events } });
  expect(made.status).toBe(201);
  return made.body as { id: string; url: string };
}

/** A test event sent through the API: its delivery's id (the receiver answers as `answering` says). */
async function testDelivery(of: TestCompany, id: string) {
  const tested = await call(stack, 'POST', `/v1/webhooks/${id}/test`, { token: of.owner.token });
  expect(tested.status).toBe(200);
  return tested.body.delivery_id as string;
}

describe('the webhooks pages', () => {
  it('lets an owner add a subscription, its secret shown once, see a refused test delivery, redeliver it once the receiver is back, and delete it', async () => {
    const owner = await signedIn('owner');
    const home = await owner.get('/app');
    expect(home.body).toContain('href="/app/webhooks"');
    const form = await owner.get('/app/webhooks/new');
    expect(form.status).toBe(200);
    for (const kind of eventKinds) expect(form.body).toContain(`value="${kind}"`);

    const url = hookUrl();
    const made = await owner.create({ url, events: ['envelope.sent', 'envelope.completed'], description: 'CRM sync' });
    expect(made.status).toBe(200);
    const secret = secretIn(made.body)!;
    expect(secret).toMatch(/^whsec_/);
    expect(made.body).toContain('id="copy-key"');
    expect(made.body).toContain('src="/static/app-keys.js"');
    const [row] = (await subscriptionsOf(company.id)).filter((stored) => stored.url === url);
    expect(row).toMatchObject({ events: ['envelope.sent', 'envelope.completed'], description: 'CRM sync', disabledAt: null });
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));

    const list = await owner.get('/app/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toContain(`href="/app/webhooks/${row!.id}"`);
    expect(list.body).toContain('envelope.completed');
    expect(list.body).toContain('CRM sync');
    expect(list.body).toContain('Active');

    // The receiver is down: the test event's answer, and the deliveries, say what it answered.
    answering = 500;
    const page = await owner.get(`/app/webhooks/${row!.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Nothing has been delivered to this subscription yet.');
    const tested = await owner.post(`/app/webhooks/${row!.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toContain('The test event was not delivered: HTTP 500 · Refused: Answered 500.</p>');
    expect(tested.body).toContain('webhook.test');
    const [failed] = await stack.services.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, row!.id));
    expect(failed).toMatchObject({ statusCode: 500, errorType: 'http_status', attempt: 1 });
    expect(tested.body).toContain(`action="/app/webhooks/${row!.id}/deliveries/${failed!.deliveryId}/redeliver"`);

    // Back up: the redelivery goes through the queue, and the page shows it delivered.
    answering = 200;
    const redelivered = await owner.post(`/app/webhooks/${row!.id}/deliveries/${failed!.deliveryId}/redeliver`);
    expect(redelivered.status).toBe(303);
    expect(redelivered.headers.get('location')).toBe(`/app/webhooks/${row!.id}?done=redelivered`);
    await drained(stack);
    const after = await owner.get(redelivered.headers.get('location')!);
    expect(after.body).toContain('The event is queued for delivery again.');
    expect(after.body).toContain('Redelivery');
    expect(after.body).toContain('HTTP 200');
    expect(after.body).toContain('Delivered');
    expect(after.body).toContain('HTTP 500');

    // A passing test shows its status and time.
    const passed = await owner.post(`/app/webhooks/${row!.id}/test`);
    expect(passed.body).toMatch(/The test event was delivered: your endpoint answered HTTP 200 in \d+ ms\./);

    const confirm = await owner.get(`/app/webhooks/${row!.id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(`action="/app/webhooks/${row!.id}/delete"`);
    const deleted = await owner.post(`/app/webhooks/${row!.id}/delete`);
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/app/webhooks?done=deleted');
    expect((await subscriptionsOf(company.id)).some((stored) => stored.id === row!.id)).toBe(false);
    const gone = await owner.get('/app/webhooks?done=deleted');
    expect(gone.body).toContain('The subscription is deleted');
    expect(gone.body).not.toContain(`href="/app/webhooks/${row!.id}"`);
    expect((await owner.get(`/app/webhooks/${row!.id}`)).status).toBe(404);
    await owner.get('/app/webhooks');
    expect((await owner.post(`/app/webhooks/${row!.id}/delete`)).status).toBe(404);

    // The secret appears in exactly one answer of all the owner's pages.
    expect(owner.answers.filter((answer) => String(answer.body).includes(secret))).toHaveLength(1);
    // The API's webhook verbs write no audit row: neither do the pages.
    const audit = await stack.services.database.db
      .select({ kind: auditEvents.kind })
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.actorId, owner.user.id)));
    expect(audit.map((event) => event.kind)).toEqual(['user.signed_in']);
  });

  it('lets an administrator rotate the secret: the new one shown once, the old one signing until the time the page says', async () => {
    const admin = await signedIn('admin');
    const { id } = await subscribedThroughApi(company);
    const confirm = await admin.get(`/app/webhooks/${id}/rotate`);
    expect(confirm.status).toBe(200);
    const rotated = await admin.post(`/app/webhooks/${id}/rotate`);
    expect(rotated.status).toBe(200);
    const secret = secretIn(rotated.body)!;
    expect(secret).toMatch(/^whsec_/);
    const [row] = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
    const until = row!.previousSecretExpiresAt!;
    expect(until.getTime()).toBe(stack.clock.now().getTime() + 24 * 3600 * 1000);
    expect(rotated.body).toContain(
      `Until ${until.toISOString().slice(0, 10)} ${until.toISOString().slice(11, 16)} UTC, each delivery is signed with the previous secret too`,
    );
    expect((await admin.get(`/app/webhooks/${id}`)).body).not.toContain(secret);
    expect(admin.answers.filter((answer) => String(answer.body).includes(secret))).toHaveLength(1);
  });

  it('replays the events since a time, and refuses a time it cannot read, in the future or older than 30 days, starting nothing', async () => {
    const owner = await signedIn('owner');
    const { id } = await subscribedThroughApi(company);
    const sentAt = stack.clock.now();
    await sendTestEnvelope(stack, company);
    await outboxRelayed(stack, company.id);
    await drained(stack);
    const replays = () => stack.services.database.db.select().from(webhookReplays).where(eq(webhookReplays.subscriptionId, id));
    const local = (at: Date) => at.toISOString().slice(0, 16);

    const now = stack.clock.now();
    const oldest = new Date(Math.ceil((now.getTime() - EVENT_RETENTION_MS) / 60_000) * 60_000);
    const cases = [
      { since: '', says: 'Enter a date and time' },
      { since: 'yesterday', says: 'Enter a date and time' },
      { since: '2026-02-30T10:00', says: 'Enter a date and time' },
      { since: '2026-11-20T24:10', says: 'Enter a date and time' },
      { since: local(new Date(now.getTime() + 120_000)), says: 'This time is in the future.' },
      { since: local(new Date(oldest.getTime() - 60_000)), says: `Events are kept 30 days: enter ${local(oldest).replace('T', ' ')} UTC or later.` },
    ];
    for (const { since, says } of cases) {
      await owner.get(`/app/webhooks/${id}`);
      const answer = await owner.post(`/app/webhooks/${id}/replay`, { since });
      expect(answer.status, since).toBe(422);
      expect(answer.body).toContain(says);
      expect(answer.body).toContain('aria-invalid="true"');
    }
    expect(await replays()).toEqual([]);

    // The oldest minute kept is accepted (nothing of the company's that old to replay but the envelope's sent event).
    await owner.get(`/app/webhooks/${id}`);
    const widest = await owner.post(`/app/webhooks/${id}/replay`, { since: local(oldest) });
    expect(widest.status).toBe(200);
    expect(widest.body).toContain('1 event is being delivered again.');
    await drained(stack);
    // One replay at a time: the first has ended once its one event was handed out and attempted.
    stack.clock.advance(60_000);
    await owner.get(`/app/webhooks/${id}`);
    const replayed = await owner.post(`/app/webhooks/${id}/replay`, { since: local(new Date(sentAt.getTime() - 60_000)).replace('T', ' ') });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toContain('1 event is being delivered again.');
    expect(await replays()).toHaveLength(2);
    await drained(stack);
    const page = await owner.get(`/app/webhooks/${id}`);
    expect(page.body).toContain('envelope.sent');
    expect(page.body).toContain('Replay');
  });

  it('shows the add form again with what is wrong, and makes nothing, for a bad URL, no or unknown events, a bad description, a taken endpoint', async () => {
    const owner = await signedIn('owner');
    const taken = await subscribedThroughApi(company);
    const before = (await subscriptionsOf(company.id)).length;
    const cases = [
      { fields: { url: '', events: ['envelope.sent'] }, says: 'Enter the URL of your endpoint.' },
      { fields: { url: 'not a url', events: ['envelope.sent'] }, says: 'This URL cannot be used.' },
      { fields: { url: 'ftp://example.com/hooks', events: ['envelope.sent'] }, says: 'must start with https:// or http://' },
      { fields: { url: 'https://user:secret@example.com/hooks', events: ['envelope.sent'] }, says: 'must not contain a user name or password' },
      { fields: { url: `https://example.com/${'a'.repeat(2000)}`, events: ['envelope.sent'] }, says: 'at most 2,000 are accepted' },
      { fields: { url: hookUrl(), events: [] }, says: 'Tick at least one event.' },
      { fields: { url: hookUrl(), events: ['envelope.sent', 'webhook.test'] }, says: 'Tick at least one event.' },
      { fields: { url: hookUrl(), events: ['envelope.sent'], description: 'x'.repeat(501) }, says: 'at most 500 characters' },
      { fields: { url: hookUrl(), events: ['envelope.sent'], description: 'two\nlines' }, says: 'at most 500 characters' },
      { fields: { url: `${taken.url}/`, events: ['envelope.sent'] }, says: 'This endpoint is subscribed already.' },
    ];
    for (const { fields, says } of cases) {
      const answer = await owner.create(fields);
      expect(answer.status, fields.url.slice(0, 60)).toBe(422);
      expect(answer.body).toContain(says);
      expect(answer.body).toContain('field-invalid');
      expect(secretIn(answer.body)).toBeUndefined();
    }
    expect((await subscriptionsOf(company.id)).length).toBe(before);
    // A description of 500 characters is the most, and is made.
    const longest = await owner.create({ url: hookUrl(), events: ['envelope.voided'], description: 'y'.repeat(500) });
    expect(longest.status).toBe(200);
    expect((await subscriptionsOf(company.id)).length).toBe(before + 1);
  });

  it.each(['member', 'viewer'] as const)(
    'shows a %s the subscriptions and deliveries, refuses every form with 403, and a forged post changes nothing',
    async (role) => {
      const { id } = await subscribedThroughApi(company);
      const deliveryId = await testDelivery(company, id);
      const person = await signedIn(role);
      const home = await person.get('/app');
      expect(home.body).toContain('href="/app/webhooks"');
      const list = await person.get('/app/webhooks');
      expect(list.status).toBe(200);
      expect(list.body).toContain(`href="/app/webhooks/${id}"`);
      expect(list.body).not.toContain('href="/app/webhooks/new"');
      const page = await person.get(`/app/webhooks/${id}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('webhook.test');
      expect(page.body).not.toContain('method="post" action="/app/webhooks/');
      for (const path of ['/app/webhooks/new', `/app/webhooks/${id}/rotate`, `/app/webhooks/${id}/delete`]) {
        const refused = await person.get(path);
        expect(refused.status, path).toBe(403);
        expect(refused.body).toContain('Only owners and administrators manage webhooks');
      }
      const before = await subscriptionsOf(company.id);
      await person.get(`/app/webhooks/${id}`);
      const forged = await person.create({ url: hookUrl(), events: ['envelope.sent'] });
      expect(forged.status).toBe(403);
      expect(forged.body).toContain('Only owners and administrators manage webhooks');
      for (const [path, fields] of [
        [`/app/webhooks/${id}/test`, {}],
        [`/app/webhooks/${id}/replay`, { since: new Date(stack.clock.now().getTime() - 3600_000).toISOString().slice(0, 16) }],
        [`/app/webhooks/${id}/deliveries/${deliveryId}/redeliver`, {}],
        [`/app/webhooks/${id}/rotate`, {}],
        [`/app/webhooks/${id}/delete`, {}],
      ] as const) {
        await person.get(`/app/webhooks/${id}`);
        const answer = await person.post(path, fields);
        expect(answer.status, path).toBe(403);
        expect(answer.body).toContain('Only owners and administrators manage webhooks');
      }
      expect(await subscriptionsOf(company.id)).toEqual(before);
      expect(await stack.services.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, id))).toHaveLength(1);
      expect(await stack.services.database.db.select().from(webhookReplays).where(eq(webhookReplays.subscriptionId, id))).toEqual([]);
      expect(await stack.services.database.db.select().from(webhookRedeliveries).where(eq(webhookRedeliveries.subscriptionId, id))).toEqual([]);
    },
  );

  it("answers another company's subscription or delivery, an unknown one and a malformed id as not found, and leaves them alone", async () => {
    const owner = await signedIn('owner');
    const theirs = await subscribedThroughApi(other);
    const theirDelivery = await testDelivery(other, theirs.id);
    const mine = await subscribedThroughApi(company);
    const myDelivery = await testDelivery(company, mine.id);
    const before = await subscriptionsOf(other.id);
    for (const id of [theirs.id, crypto.randomUUID(), 'not-a-subscription']) {
      expect((await owner.get(`/app/webhooks/${id}`)).status, id).toBe(404);
      for (const path of [`/app/webhooks/${id}/rotate`, `/app/webhooks/${id}/delete`]) expect((await owner.get(path)).status).toBe(404);
      for (const [path, fields] of [
        [`/app/webhooks/${id}/test`, {}],
        [`/app/webhooks/${id}/replay`, { since: new Date(stack.clock.now().getTime() - 3600_000).toISOString().slice(0, 16) }],
        [`/app/webhooks/${id}/deliveries/${theirDelivery}/redeliver`, {}],
        [`/app/webhooks/${id}/deliveries/${myDelivery}/redeliver`, {}],
        [`/app/webhooks/${id}/rotate`, {}],
        [`/app/webhooks/${id}/delete`, {}],
      ] as const) {
        await owner.get('/app/webhooks');
        expect((await owner.post(path, fields)).status, path).toBe(404);
      }
    }
    // Another company's delivery, or an unknown one, under one's own subscription.
    for (const deliveryId of [theirDelivery, crypto.randomUUID(), 'not-a-delivery']) {
      await owner.get(`/app/webhooks/${mine.id}`);
      expect((await owner.post(`/app/webhooks/${mine.id}/deliveries/${deliveryId}/redeliver`)).status, deliveryId).toBe(404);
    }
    expect((await owner.get('/app/webhooks')).body).not.toContain(theirs.id);
    expect(await subscriptionsOf(other.id)).toEqual(before);
    expect(await stack.services.database.db.select().from(webhookRedeliveries).where(eq(webhookRedeliveries.subscriptionId, mine.id))).toEqual([]);
    expect(await stack.services.database.db.select().from(webhookReplays).where(eq(webhookReplays.subscriptionId, theirs.id))).toEqual([]);
  });

  it('pages the deliveries, 25 to a page, and answers a page it cannot read with 400', async () => {
    const owner = await signedIn('owner');
    const { id } = await subscribedThroughApi(company);
    for (let i = 0; i < 26; i++) await testDelivery(company, id);
    const first = await owner.get(`/app/webhooks/${id}`);
    expect(first.body).toContain('26 attempts');
    expect(first.body).toContain('Page 1 of 2');
    expect(first.body).toContain(`href="/app/webhooks/${id}?page=2"`);
    expect(first.body.match(/<tr>/g)?.length).toBe(1 + 25);
    const second = await owner.get(`/app/webhooks/${id}?page=2`);
    expect(second.status).toBe(200);
    expect(second.body.match(/<tr>/g)?.length).toBe(1 + 1);
    expect((await owner.get(`/app/webhooks/${id}?page=3`)).body).toContain('There are no deliveries on this page.');
    expect((await owner.get(`/app/webhooks/${id}?page=1000`)).status).toBe(200);
    for (const page of ['0', '1001', 'two', '-1']) {
      const answer = await owner.get(`/app/webhooks/${id}?page=${page}`);
      expect(answer.status, page).toBe(400);
      expect(answer.body).toContain('The page number could not be read.');
    }
  });

  it("shows a disabled subscription's state and why, on the list and its page", async () => {
    const viewer = await signedIn('viewer');
    const { id } = await subscribedThroughApi(company);
    await stack.services.database.db
      .update(webhookSubscriptions)
      .set({ disabledAt: stack.clock.now(), disabledReason: 'The endpoint answered 410 Gone.' })
      .where(eq(webhookSubscriptions.id, id));
    const list = await viewer.get('/app/webhooks');
    const row = list.body.slice(list.body.indexOf(`href="/app/webhooks/${id}"`));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain('Disabled: The endpoint answered 410 Gone.');
    const page = await viewer.get(`/app/webhooks/${id}`);
    expect(page.body).toContain('Disabled: The endpoint answered 410 Gone.');
    expect(page.body).toContain('A redelivery or a replay enables it again.');
  });

  it("adds a company's 25th subscription and refuses the 26th on the form, making nothing", async () => {
    const fresh = await createTestCompany(stack);
    const owner = await signedIn('owner', fresh.id);
    for (let i = 0; i < SUBSCRIPTIONS_PER_COMPANY - 1; i++) await subscribedThroughApi(fresh);
    const last = await owner.create({ url: hookUrl(), events: ['envelope.sent'] });
    expect(last.status).toBe(200);
    expect(secretIn(last.body)).toMatch(/^whsec_/);
    const past = await owner.create({ url: hookUrl(), events: ['envelope.sent'] });
    expect(past.status).toBe(422);
    expect(past.body).toContain(`The company has ${SUBSCRIPTIONS_PER_COMPANY} subscriptions, the most it may have.`);
    expect(await subscriptionsOf(fresh.id)).toHaveLength(SUBSCRIPTIONS_PER_COMPANY);
  });

  it("makes a company's 60th test delivery of the hour and refuses the 61st with 429, sending nothing", async () => {
    const fresh = await createTestCompany(stack);
    const owner = await signedIn('owner', fresh.id);
    const { id } = await subscribedThroughApi(fresh);
    for (let i = 0; i < TEST_DELIVERIES_PER_HOUR - 1; i++) await testDelivery(fresh, id);
    await owner.get(`/app/webhooks/${id}`);
    expect((await owner.post(`/app/webhooks/${id}/test`)).status).toBe(200);
    const before = received.length;
    const refused = await owner.post(`/app/webhooks/${id}/test`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatch(/Too many of these in a short time\. Try again in 60 minutes\./);
    expect(received.length).toBe(before);
  });

  it('sends a signed-out browser to sign in', async () => {
    const client = appClient(stack);
    for (const path of ['/app/webhooks', '/app/webhooks/new', `/app/webhooks/${crypto.randomUUID()}`]) {
      const answer = await client.get(path);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/app');
    }
  });
});
