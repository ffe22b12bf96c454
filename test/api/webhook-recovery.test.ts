/**
 * What lets an integrator miss no event: replaying a window of past events, redelivering one
 * delivery, rotating the signing secret with 24 hours of overlap, the download link of the finished
 * PDF, and each event's place in its envelope's history. Against a real local receiver that
 * verifies with the `standardwebhooks` package, as an integrator's would.
 *
 * One file although long: replay, redelivery, rotation and the download link act on the same
 * recorded events and subscriber.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { webhookDeliveries, webhookEvents, webhookRedeliveries, webhookReplays, webhookSubscriptions } from '../../src/data/schema.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import type { SigningState } from '../../src/domain/signing/signing-state.js';
import { DELIVERY_ATTEMPTS } from '../../src/domain/webhooks/deliver-event.js';
import { deliverWebhookEvent } from '../../src/domain/webhooks/dispatch-event.js';
import { EVENT_RETENTION_MS, purgeExpiredWebhookEvents, REDELIVERY_RETENTION_MS } from '../../src/domain/webhooks/event-retention.js';
import { REPLAY_STALLED_AFTER_MS } from '../../src/domain/webhooks/replay-events.js';
import { eventually } from '../support/eventually.js';
import { addKeyHolder, createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { drained, outboxRelayed } from '../support/drained.js';
import { unique } from '../support/unique.js';
import { bySigner } from '../support/signer-verbs.js';
import { runConsumer } from '../../src/queue/consumers.js';

let stack: TestStack;
type Received = { headers: IncomingHttpHeaders; body: string; path: string };
let server: Server;
let base: string;
let received: Received[] = [];
/** What the receiver answers. */
let status = 200;
/** While set, the receiver holds its answers until it resolves. */
let hold: Promise<void> | null = null;

beforeAll(async () => {
  stack = await openStack();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      const answer = status;
      await hold;
      res.statusCode = answer;
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
beforeEach(() => {
  received = [];
  status = 200;
  hold = null;
});

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const who = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (test)' };

/** The receiver's check, with its clock where the service's is (the manual clock moves days in these tests). */
function verifies(secret: string, delivery: Received): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: stack.clock.now() });
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

const at = (path: string) => received.filter((delivery) => delivery.path === path);
const payloadOf = (delivery: Received) =>
  JSON.parse(delivery.body) as {
    type: string;
    data: { document?: { content_base64: string; download_url: string; sha256: string } } & Record<string, unknown>;
  };

async function subscribe(company: TestCompany, events: string[], path = `/hooks/${unique()}`) {
  const answer = await call(stack, 'POST', '/v1/webhooks', { token: company.owner.token, body: { url: `${base}${path}`, events } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { id: answer.body.id as string, secret: answer.body.secret as string, path };
}

const replay = (company: TestCompany, webhookId: string, body: unknown, token = company.owner.token) =>
  call(stack, 'POST', `/v1/webhooks/${webhookId}/replay`, { token, body });

/** Waits until the subscription has no replay running, so that the next test's replay may start. */
const replayEnded = (webhookId: string) =>
  vi.waitFor(async () => {
    const running = await stack.services.database.db
      .select()
      .from(webhookReplays)
      .where(and(eq(webhookReplays.subscriptionId, webhookId), isNull(webhookReplays.finishedAt)));
    expect(running).toEqual([]);
  }, eventually);

/** A send whose follow-ups go nowhere, so that the test runs each delivery attempt itself. */
async function quietSend(company: TestCompany) {
  const original = stack.services.queue;
  stack.services.queue = { publish: async () => {} };
  try {
    const { envelopeId } = await sendTestEnvelope(stack, company);
    await outboxRelayed(stack, company.id, eventually);
    const [event] = await stack.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, envelopeId));
    return event!;
  } finally {
    stack.services.queue = original;
  }
}

/** The values a complete signing form posts. */
function completeForm(state: SigningState) {
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  return { consent: true, values: Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : state.recipient.name])) };
}

/**
 * An envelope's whole life, a second apart: sent, both signers view and sign, completed, and the
 * finished PDF made (document_ready). Answers the envelope's id.
 */
async function wholeLife(company: TestCompany): Promise<string> {
  const { envelopeId, links } = await sendTestEnvelope(stack, company);
  for (const link of links) {
    stack.clock.advance(SECOND);
    const state = await bySigner(stack.services, who, openSigningLink, { token: link.token });
    stack.clock.advance(SECOND);
    await bySigner(stack.services, who, signAsRecipient, { token: link.token, submission: completeForm(state) });
  }
  await vi.waitFor(async () => {
    const kinds = (await stack.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, envelopeId))).map((event) => event.kind);
    expect(kinds).toContain('envelope.document_ready');
  }, eventually);
  return envelopeId;
}

const eventsOf = (envelopeId: string) =>
  stack.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, envelopeId)).orderBy(asc(webhookEvents.sequence));

describe('sequence numbers', () => {
  it("number an envelope's events 1, 2, 3… in the order they occurred, stored and delivered", async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent', 'envelope.viewed', 'envelope.signed', 'envelope.completed', 'envelope.document_ready']);
    const envelopeId = await wholeLife(company);
    const events = await eventsOf(envelopeId);
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.map((event) => event.kind)).toEqual([
      'envelope.sent',
      'envelope.viewed',
      'envelope.signed',
      'envelope.viewed',
      'envelope.signed',
      'envelope.completed',
      'envelope.document_ready',
    ]);
    // Each stored event occurred no earlier than the one numbered before it.
    for (let i = 1; i < events.length; i++) expect(events[i]!.createdAt.getTime()).toBeGreaterThanOrEqual(events[i - 1]!.createdAt.getTime());
    await vi.waitFor(() => expect(new Set(at(hook.path).map((delivery) => delivery.headers['webhook-id'])).size).toBe(7), eventually);
    for (const delivery of at(hook.path)) {
      const event = events.find((candidate) => candidate.id === delivery.headers['webhook-id'])!;
      expect(payloadOf(delivery).data.sequence).toBe(event.sequence);
    }
  });
});

describe('replay', () => {
  it('brings back, with the same webhook-id, an event whose six attempts all failed while the receiver was down', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const event = await quietSend(company);
    status = 503;
    for (let attempt = 1; attempt < DELIVERY_ATTEMPTS; attempt++) {
      await expect(runConsumer(stack.services, deliverWebhookEvent, { event_id: event.id, subscription_id: hook.id })).rejects.toThrow();
    }
    await runConsumer(stack.services, deliverWebhookEvent, { event_id: event.id, subscription_id: hook.id });
    expect(at(hook.path)).toHaveLength(DELIVERY_ATTEMPTS);
    const failed = (await call(stack, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { token: company.owner.token })).body.data;
    expect(failed.map((attempt: { attempt: number; status_code: number; origin: string }) => [attempt.attempt, attempt.status_code, attempt.origin])).toEqual(
      [6, 5, 4, 3, 2, 1].map((n) => [n, 503, 'event']),
    );

    // The receiver is back: it replays the window it missed.
    status = 200;
    received = [];
    stack.clock.advance(HOUR / 2);
    const answer = await replay(company, hook.id, { since: new Date(event.createdAt.getTime() - SECOND).toISOString() });
    expect([answer.status, answer.body]).toEqual([202, { replayed: 1 }]);
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(1), eventually);
    const [delivery] = at(hook.path);
    expect(delivery!.headers['webhook-id']).toBe(event.id);
    expect(verifies(hook.secret, delivery!)).toBe(true);
    // Freshly signed: this attempt's time, not the first's.
    expect(Number(delivery!.headers['webhook-timestamp'])).toBe(Math.floor(stack.clock.now().getTime() / 1000));
    expect(payloadOf(delivery!)).toMatchObject({ type: 'envelope.sent', data: { sequence: 1, envelope: { envelope_id: event.envelopeId } } });
    await vi.waitFor(async () => {
      const listed = (await call(stack, 'GET', `/v1/webhooks/${hook.id}/deliveries?per_page=1`, { token: company.owner.token })).body.data;
      expect(listed[0]).toMatchObject({ event_id: event.id, origin: 'replay', attempt: 1, delivered: true, status_code: 200 });
      expect(listed[0].delivery_id).not.toBe(failed[0].delivery_id);
    }, eventually);
    await replayEnded(hook.id);
  });

  it('delivers a window of several kinds in the order they occurred, narrowed by events, including events from before the subscription', async () => {
    const company = await createTestCompany(stack);
    const start = stack.clock.now();
    const envelopeId = await wholeLife(company);
    stack.clock.advance(SECOND);
    const later = await sendTestEnvelope(stack, company);
    // Subscribed after all of it was dispatched, as a receiver that lost its data and subscribes again.
    await drained(stack);
    const hook = await subscribe(company, ['envelope.sent', 'envelope.viewed', 'envelope.signed', 'envelope.completed', 'envelope.document_ready']);
    const life = await eventsOf(envelopeId);
    const [laterSent] = await eventsOf(later.envelopeId);

    const all = await replay(company, hook.id, { since: start.toISOString() });
    expect([all.status, all.body]).toEqual([202, { replayed: 8 }]);
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(8), eventually);
    expect(at(hook.path).map((delivery) => delivery.headers['webhook-id'])).toEqual([...life.map((event) => event.id), laterSent!.id]);
    expect(at(hook.path).map((delivery) => payloadOf(delivery).data.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 1]);
    expect(at(hook.path).every((delivery) => verifies(hook.secret, delivery))).toBe(true);
    await replayEnded(hook.id);

    // Narrowed by kind and by until: the signed and completed events of the first envelope only.
    received = [];
    const narrowed = await replay(company, hook.id, {
      since: start.toISOString(),
      until: life.at(-1)!.createdAt.toISOString(),
      events: ['envelope.signed', 'envelope.completed'],
    });
    expect([narrowed.status, narrowed.body]).toEqual([202, { replayed: 3 }]);
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(3), eventually);
    expect(at(hook.path).map((delivery) => payloadOf(delivery).type)).toEqual(['envelope.signed', 'envelope.signed', 'envelope.completed']);
    expect(at(hook.path).map((delivery) => payloadOf(delivery).data.sequence)).toEqual([3, 5, 6]);
    await replayEnded(hook.id);
  });

  it('reaches back exactly 30 days: since at 30 days is taken, one millisecond more is refused; until before since too', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent', 'envelope.signed']);
    const now = stack.clock.now().getTime();
    const at30 = await replay(company, hook.id, { since: new Date(now - EVENT_RETENTION_MS).toISOString() });
    expect([at30.status, at30.body]).toEqual([202, { replayed: 0 }]);
    await replayEnded(hook.id);
    const past = await replay(company, hook.id, { since: new Date(now - EVENT_RETENTION_MS - 1).toISOString() });
    expect([past.status, errorCode(past)]).toEqual([422, 'validation_failed']);
    expect(past.body.error.details.issues).toEqual([{ path: 'since', message: expect.stringMatching(/30 days/) }]);

    const refusals: [unknown, string][] = [
      [{ since: new Date(now - HOUR).toISOString(), until: new Date(now - 2 * HOUR).toISOString() }, 'until'],
      [{ since: new Date(now + HOUR).toISOString() }, 'since'],
      [{ since: new Date(now - HOUR).toISOString(), until: new Date(now + HOUR).toISOString() }, 'until'],
      [{ since: new Date(now - HOUR).toISOString(), events: ['envelope.completed'] }, 'events.0'],
      [{ since: new Date(now - HOUR).toISOString(), events: ['envelope.sent', 'no.such_kind'] }, 'events.1'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: new Date(now - HOUR).toISOString(), events: [] }, 'events'],
      [{}, 'since'],
      [{ since: new Date(now - HOUR).toISOString(), extra: true }, 'extra'],
    ];
    for (const [body, path] of refusals) {
      const answer = await replay(company, hook.id, body);
      expect([answer.status, errorCode(answer)], JSON.stringify(body)).toEqual([422, 'validation_failed']);
      expect(
        answer.body.error.details.issues.map((issue: { path: string }) => issue.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    // Until exactly since is a window of one instant.
    const instant = await replay(company, hook.id, { since: new Date(now - HOUR).toISOString(), until: new Date(now - HOUR).toISOString() });
    expect(instant.status).toBe(202);
    await replayEnded(hook.id);
  });

  it('runs one at a time per subscription: a second while one runs is 409 replay_in_progress with Retry-After', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const other = await subscribe(company, ['envelope.sent']);
    const since = stack.clock.now().toISOString();
    await quietSend(company);
    await quietSend(company);
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const first = await replay(company, hook.id, { since });
    expect([first.status, first.body]).toEqual([202, { replayed: 2 }]);
    // The first event is at the receiver, which holds its answer: the replay is running.
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(1), eventually);
    const second = await replay(company, hook.id, { since });
    expect([second.status, errorCode(second)]).toEqual([409, 'replay_in_progress']);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another subscription of the company is not held up.
    const beside = await replay(company, other.id, { since });
    expect(beside.status).toBe(202);
    release();
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(2), eventually);
    await replayEnded(hook.id);
    await replayEnded(other.id);
    const third = await replay(company, hook.id, { since });
    expect(third.status).toBe(202);
    await replayEnded(hook.id);
  });

  it('goes on past the events housekeeping removes at 30 days while it runs, the one being delivered and one still to come', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const since = stack.clock.now().toISOString();
    const events = [];
    for (let i = 0; i < 4; i++) {
      stack.clock.advance(SECOND);
      events.push(await quietSend(company));
    }
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const started = await replay(company, hook.id, { since });
    expect([started.status, started.body]).toEqual([202, { replayed: 4 }]);
    // The first event is at the receiver: it is the replay's cursor when it is removed, with the third.
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(1), eventually);
    const { db } = stack.services.database;
    await db.delete(webhookEvents).where(inArray(webhookEvents.id, [events[0]!.id, events[2]!.id]));
    release();
    await replayEnded(hook.id);
    expect(at(hook.path).map((delivery) => delivery.headers['webhook-id'])).toEqual([events[0]!.id, events[1]!.id, events[3]!.id]);
    const [ended] = await db.select().from(webhookReplays).where(eq(webhookReplays.subscriptionId, hook.id));
    expect(ended).toMatchObject({ cursor: events[3]!.id, handed: 3 });
  });

  it('goes on when the event a delivery of it waited for in the queue was removed meanwhile', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const since = stack.clock.now();
    const gone = await quietSend(company);
    stack.clock.advance(SECOND);
    const next = await quietSend(company);
    const { db } = stack.services.database;
    const replayId = crypto.randomUUID();
    await db.insert(webhookReplays).values({
      id: replayId,
      companyId: company.id,
      subscriptionId: hook.id,
      since,
      until: stack.clock.now(),
      events: ['envelope.sent'],
      total: 2,
      cursor: gone.id,
      cursorAt: gone.createdAt,
      cursorSequence: 1,
      handed: 1,
      progressedAt: stack.clock.now(),
    });
    await db.delete(webhookEvents).where(eq(webhookEvents.id, gone.id));
    await runConsumer(stack.services, deliverWebhookEvent, {
      event_id: gone.id,
      subscription_id: hook.id,
      delivery_id: crypto.randomUUID(),
      origin: 'replay',
      replay_id: replayId,
    });
    await replayEnded(hook.id);
    expect(at(hook.path).map((delivery) => delivery.headers['webhook-id'])).toEqual([next.id]);
  });

  it('takes a replay that has not moved for 15 minutes as stopped, so it no longer blocks the next', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const now = stack.clock.now();
    const since = new Date(now.getTime() - HOUR).toISOString();
    // A replay whose chain broke (a crash between two steps), last moved exactly 15 minutes ago: still taken as running.
    const stalled = crypto.randomUUID();
    await stack.services.database.db.insert(webhookReplays).values({
      id: stalled,
      companyId: company.id,
      subscriptionId: hook.id,
      since: new Date(since),
      until: now,
      events: ['envelope.sent'],
      total: 3,
      cursor: 'msg_gone',
      handed: 1,
      progressedAt: new Date(now.getTime() - REPLAY_STALLED_AFTER_MS),
    });
    expect(errorCode(await replay(company, hook.id, { since }))).toBe('replay_in_progress');
    // One millisecond older, it gives way.
    await stack.services.database.db
      .update(webhookReplays)
      .set({ progressedAt: new Date(now.getTime() - REPLAY_STALLED_AFTER_MS - 1) })
      .where(eq(webhookReplays.id, stalled));
    expect((await replay(company, hook.id, { since })).status).toBe(202);
    const [old] = await stack.services.database.db.select().from(webhookReplays).where(eq(webhookReplays.id, stalled));
    expect(old!.finishedAt).not.toBeNull();
    await replayEnded(hook.id);
  });

  it('starts one of two replays asked for at once; the other is 409 replay_in_progress', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const since = stack.clock.now().toISOString();
    await quietSend(company);
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const answers = await Promise.all([replay(company, hook.id, { since }), replay(company, hook.id, { since })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    release();
    await replayEnded(hook.id);
  });

  it('allows a company 20 replays in any 24 hours, all its subscriptions together: the 21st is 429 rate_limited with Retry-After', async () => {
    const company = await createTestCompany(stack);
    const hooks = [await subscribe(company, ['envelope.sent']), await subscribe(company, ['envelope.sent'])];
    const since = stack.clock.now().toISOString();
    const now = stack.clock.now().getTime();
    // 19 replays of the last day (ended), the oldest 23 hours ago, and one exactly a day old, which no longer counts.
    await stack.services.database.db.insert(webhookReplays).values(
      Array.from({ length: 20 }, (_, i) => ({
        id: crypto.randomUUID(),
        companyId: company.id,
        subscriptionId: hooks[i % 2]!.id,
        since: new Date(now - 25 * HOUR),
        until: new Date(now - 24 * HOUR),
        events: ['envelope.sent'],
        total: 0,
        createdAt: new Date(now - (i === 0 ? 24 * HOUR : i === 1 ? 23 * HOUR : HOUR)),
        progressedAt: new Date(now - HOUR),
        finishedAt: new Date(now - HOUR),
      })),
    );
    const twentieth = await replay(company, hooks[0]!.id, { since });
    expect([twentieth.status, twentieth.body]).toEqual([202, { replayed: 0 }]);
    await replayEnded(hooks[0]!.id);
    const past = await replay(company, hooks[1]!.id, { since });
    expect([past.status, errorCode(past), past.body.error.details.limit]).toEqual([429, 'rate_limited', 20]);
    expect(past.headers.get('retry-after')).toBe(String(3600));
    // Another company is apart.
    const stranger = await createTestCompany(stack);
    expect((await replay(stranger, (await subscribe(stranger, ['envelope.sent'])).id, { since })).status).toBe(202);
  });

  it('allows a company 10,000 replayed events in any 24 hours: a replay that would pass them is 429; one of more than 10,000 is 422', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const other = await subscribe(company, ['envelope.sent']);
    const now = stack.clock.now().getTime();
    // Replays of the last day that carried 9,999 events: 9,000 two hours ago, 999 an hour ago.
    await stack.services.database.db.insert(webhookReplays).values(
      [9_000, 999].map((total, i) => ({
        id: crypto.randomUUID(),
        companyId: company.id,
        subscriptionId: other.id,
        since: new Date(now - 25 * HOUR),
        until: new Date(now - 24 * HOUR),
        events: ['envelope.sent'],
        total,
        createdAt: new Date(now - (2 - i) * HOUR),
        progressedAt: new Date(now - HOUR),
        finishedAt: new Date(now - HOUR),
      })),
    );
    const since = stack.clock.now().toISOString();
    await quietSend(company);
    stack.clock.advance(SECOND);
    const one = await replay(company, hook.id, { since });
    expect([one.status, one.body]).toEqual([202, { replayed: 1 }]);
    await replayEnded(hook.id);
    await quietSend(company);
    stack.clock.advance(SECOND);
    const past = await replay(company, hook.id, { since });
    expect([past.status, errorCode(past), past.body.error.details.events_limit]).toEqual([429, 'rate_limited', 10_000]);
    // The 2 events fit once the 9,000 of two hours ago leave the day.
    expect(past.headers.get('retry-after')).toBe(String(22 * 3600 - 2));

    // One replay may not carry more than the day's budget, whenever it is asked.
    const big = await createTestCompany(stack);
    const bigHook = await subscribe(big, ['envelope.sent']);
    const ago = (ms: number) => new Date(stack.clock.now().getTime() - ms);
    await stack.services.database.db.insert(webhookEvents).values(
      Array.from({ length: 10_001 }, (_, i) => ({
        id: `msg_flood_${unique()}_${i}`,
        companyId: big.id,
        kind: 'envelope.sent' as const,
        payload: {},
        createdAt: ago(HOUR - i),
      })),
    );
    const tooMany = await replay(big, bigHook.id, { since: ago(HOUR).toISOString(), until: ago(HOUR - 10_000).toISOString() });
    expect([tooMany.status, errorCode(tooMany), tooMany.body.error.details.issues?.[0]?.path]).toEqual([422, 'validation_failed', 'since']);
    const atTheBound = await replay(big, bigHook.id, { since: ago(HOUR).toISOString(), until: ago(HOUR - 9_999).toISOString() });
    expect([atTheBound.status, atTheBound.body]).toEqual([202, { replayed: 10_000 }]);
    // Removed, the subscription ends its replay at the next step.
    expect((await call(stack, 'DELETE', `/v1/webhooks/${bigHook.id}`, { token: big.owner.token })).status).toBe(204);
    await replayEnded(bigHook.id);
  });

  it('answers another company’s subscription as an unknown one, and refuses a key without webhooks:write', async () => {
    const company = await createTestCompany(stack);
    const theirs = await subscribe(await createTestCompany(stack), ['envelope.sent']);
    const since = new Date(stack.clock.now().getTime() - HOUR).toISOString();
    const answer = await replay(company, theirs.id, { since });
    expect([answer.status, errorCode(answer)]).toEqual([404, 'webhook_not_found']);
    const reader = await addKeyHolder(stack, company.id, { scopes: ['webhooks:read'] });
    const mine = await subscribe(company, ['envelope.sent']);
    expect(errorCode(await replay(company, mine.id, { since }, reader.token))).toBe('insufficient_scope');
  });

  it('removes events older than 30 days at housekeeping, keeping those of exactly 30 days', async () => {
    const company = await createTestCompany(stack);
    const old = await quietSend(company);
    const kept = await quietSend(company);
    const { db } = stack.services.database;
    const now = stack.clock.now().getTime();
    await db
      .update(webhookEvents)
      .set({ createdAt: new Date(now - EVENT_RETENTION_MS - 1) })
      .where(eq(webhookEvents.id, old.id));
    await db
      .update(webhookEvents)
      .set({ createdAt: new Date(now - EVENT_RETENTION_MS) })
      .where(eq(webhookEvents.id, kept.id));
    await purgeExpiredWebhookEvents(db, stack.clock.now());
    const left = await db.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.companyId, company.id));
    expect(left.map((event) => event.id)).toEqual([kept.id]);
  });

  it('removes redeliveries asked more than two days ago at housekeeping, keeping those of exactly two days', async () => {
    const company = await createTestCompany(stack);
    const subscription = await subscribe(company, ['envelope.sent']);
    const { db } = stack.services.database;
    const now = stack.clock.now().getTime();
    const asked = (ageMs: number, settled: boolean) => ({
      id: crypto.randomUUID(),
      companyId: company.id,
      subscriptionId: subscription.id,
      eventId: `evt_${unique()}`,
      createdAt: new Date(now - ageMs),
      settledAt: settled ? new Date(now - ageMs) : null,
    });
    const old = [asked(REDELIVERY_RETENTION_MS + 1, true), asked(REDELIVERY_RETENTION_MS + 1, false)];
    const kept = asked(REDELIVERY_RETENTION_MS, true);
    await db.insert(webhookRedeliveries).values([...old, kept]);
    await purgeExpiredWebhookEvents(db, stack.clock.now());
    const left = await db.select({ id: webhookRedeliveries.id }).from(webhookRedeliveries).where(eq(webhookRedeliveries.companyId, company.id));
    expect(left.map((row) => row.id)).toEqual([kept.id]);
  });
});

describe('redelivery', () => {
  /** Runs the event's own delivery to its last attempt, each failing, as the queue would over its schedule. */
  async function failWholeSchedule(eventId: string, subscriptionId: string) {
    for (let attempt = 1; attempt < DELIVERY_ATTEMPTS; attempt++) {
      await expect(runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: subscriptionId })).rejects.toThrow();
    }
    await runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: subscriptionId });
  }
  const redeliver = (company: TestCompany, webhookId: string, deliveryId: string) =>
    call(stack, 'POST', `/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { token: company.owner.token });
  const newestDelivery = async (company: TestCompany, webhookId: string) =>
    (await call(stack, 'GET', `/v1/webhooks/${webhookId}/deliveries?per_page=1`, { token: company.owner.token })).body.data[0];
  /** Waits until the company has no redelivery pending. */
  const redeliveriesEnded = (companyId: string) =>
    vi.waitFor(async () => {
      const pending = await stack.services.database.db
        .select()
        .from(webhookRedeliveries)
        .where(and(eq(webhookRedeliveries.companyId, companyId), isNull(webhookRedeliveries.settledAt)));
      expect(pending).toEqual([]);
    }, eventually);

  it('refuses with 409 delivery_pending a delivery the queue will still retry, and a second redelivery of its event while the first is queued or attempted', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const event = await quietSend(company);
    status = 500;
    await expect(runConsumer(stack.services, deliverWebhookEvent, { event_id: event.id, subscription_id: hook.id })).rejects.toThrow();
    const retried = await newestDelivery(company, hook.id);
    expect(retried).toMatchObject({ attempt: 1, delivered: false });
    const early = await redeliver(company, hook.id, retried.delivery_id);
    expect([early.status, errorCode(early), early.body.error.details.delivery_id]).toEqual([409, 'delivery_pending', retried.delivery_id]);

    for (let attempt = 2; attempt < DELIVERY_ATTEMPTS; attempt++) {
      await expect(runConsumer(stack.services, deliverWebhookEvent, { event_id: event.id, subscription_id: hook.id })).rejects.toThrow();
    }
    // Attempt 5 failed: one is still to come.
    expect(errorCode(await redeliver(company, hook.id, retried.delivery_id))).toBe('delivery_pending');
    await runConsumer(stack.services, deliverWebhookEvent, { event_id: event.id, subscription_id: hook.id });

    status = 200;
    received = [];
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const first = await redeliver(company, hook.id, retried.delivery_id);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    // Queued or at the receiver, which holds its answer: the same delivery, its new one, and the event again are refused.
    for (const deliveryId of [retried.delivery_id, first.body.delivery_id]) {
      const again = await redeliver(company, hook.id, deliveryId);
      expect([again.status, errorCode(again), again.body.error.details.delivery_id], deliveryId).toEqual([409, 'delivery_pending', first.body.delivery_id]);
    }
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(1), eventually);
    expect(errorCode(await redeliver(company, hook.id, retried.delivery_id))).toBe('delivery_pending');
    release();
    await redeliveriesEnded(company.id);
    expect(at(hook.path)).toHaveLength(1);
    // Once delivered, the event may be redelivered again.
    const later = await redeliver(company, hook.id, retried.delivery_id);
    expect(later.status).toBe(202);
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(2), eventually);
    await redeliveriesEnded(company.id);
  });

  it('starts one of two redeliveries of one delivery asked at once; the other is 409 delivery_pending', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const event = await quietSend(company);
    status = 500;
    await failWholeSchedule(event.id, hook.id);
    status = 200;
    received = [];
    const { delivery_id } = await newestDelivery(company, hook.id);
    const answers = await Promise.all([redeliver(company, hook.id, delivery_id), redeliver(company, hook.id, delivery_id)]);
    expect(answers.map((answer) => `${answer.status} ${errorCode(answer) ?? ''}`.trim()).sort()).toEqual(['202', '409 delivery_pending']);
    await redeliveriesEnded(company.id);
    expect(at(hook.path)).toHaveLength(1);
  });

  it('allows a company 500 redeliveries in any 24 hours, all its subscriptions together: the 501st is 429 rate_limited with Retry-After', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const event = await quietSend(company);
    await runConsumer(stack.services, deliverWebhookEvent, { event_id: event.id, subscription_id: hook.id });
    const { delivery_id } = await newestDelivery(company, hook.id);
    const now = stack.clock.now().getTime();
    // 499 redeliveries of the last day (ended), the oldest 20 hours ago, and one exactly a day old, which no longer counts.
    const other = await subscribe(company, ['envelope.sent']);
    await stack.services.database.db.insert(webhookRedeliveries).values(
      Array.from({ length: 500 }, (_, i) => ({
        id: crypto.randomUUID(),
        companyId: company.id,
        subscriptionId: other.id,
        eventId: event.id,
        createdAt: new Date(now - (i === 0 ? 24 * HOUR : i === 1 ? 20 * HOUR : HOUR)),
        settledAt: new Date(now - (i === 0 ? 24 * HOUR : HOUR)),
      })),
    );
    const fiveHundredth = await redeliver(company, hook.id, delivery_id);
    expect(fiveHundredth.status, JSON.stringify(fiveHundredth.body)).toBe(202);
    await redeliveriesEnded(company.id);
    const past = await redeliver(company, hook.id, delivery_id);
    expect([past.status, errorCode(past), past.body.error.details.limit]).toEqual([429, 'rate_limited', 500]);
    expect(past.headers.get('retry-after')).toBe(String(4 * 3600));
    // Another company is apart.
    const stranger = await createTestCompany(stack);
    const theirs = await subscribe(stranger, ['envelope.sent']);
    const theirEvent = await quietSend(stranger);
    await runConsumer(stack.services, deliverWebhookEvent, { event_id: theirEvent.id, subscription_id: theirs.id });
    expect((await redeliver(stranger, theirs.id, (await newestDelivery(stranger, theirs.id)).delivery_id)).status).toBe(202);
    await redeliveriesEnded(stranger.id);
  });

  it('delivers one failed delivery again, same webhook-id; an unknown or another company’s delivery is 404 delivery_not_found', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const event = await quietSend(company);
    status = 500;
    await failWholeSchedule(event.id, hook.id);
    const [failed] = (await call(stack, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { token: company.owner.token })).body.data;
    expect(failed).toMatchObject({
      event_id: event.id,
      delivered: false,
      status_code: 500,
      origin: 'event',
      delivery_id: expect.any(String),
      attempt: DELIVERY_ATTEMPTS,
    });

    status = 200;
    received = [];
    const answer = await call(stack, 'POST', `/v1/webhooks/${hook.id}/deliveries/${failed.delivery_id}/redeliver`, { token: company.owner.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toEqual({ delivery_id: expect.any(String), event_id: event.id });
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(1), eventually);
    expect(at(hook.path)[0]!.headers['webhook-id']).toBe(event.id);
    expect(verifies(hook.secret, at(hook.path)[0]!)).toBe(true);
    await vi.waitFor(async () => {
      const attempts = await stack.services.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, answer.body.delivery_id));
      expect(attempts.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.origin])).toEqual([[1, 200, 'redelivery']]);
    }, eventually);

    const redeliver = (webhookId: string, deliveryId: string) =>
      call(stack, 'POST', `/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { token: company.owner.token });
    for (const deliveryId of [crypto.randomUUID(), 'not-a-uuid']) {
      const unknown = await redeliver(hook.id, deliveryId);
      expect([unknown.status, errorCode(unknown)]).toEqual([404, 'delivery_not_found']);
    }
    // A delivery of another subscription of the same company is not this subscription's.
    const sibling = await subscribe(company, ['envelope.sent']);
    expect(errorCode(await redeliver(sibling.id, failed.delivery_id))).toBe('delivery_not_found');
    // Another company naming this subscription and its delivery learns nothing of either.
    const stranger = await createTestCompany(stack);
    const theirs = await call(stack, 'POST', `/v1/webhooks/${hook.id}/deliveries/${failed.delivery_id}/redeliver`, { token: stranger.owner.token });
    expect([theirs.status, errorCode(theirs)]).toEqual([404, 'webhook_not_found']);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours, then with the new one only; the new secret is shown once and kept sealed', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.sent']);
    const event = await quietSend(company);
    const rotated = await call(stack, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: company.owner.token });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body).toEqual({
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      previous_secret_expires_at: new Date(stack.clock.now().getTime() + 24 * HOUR).toISOString(),
    });
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(hook.secret);
    const rows = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, hook.id));
    expect(JSON.stringify(rows)).not.toContain(fresh.slice(6));
    expect(JSON.stringify(rows)).not.toContain(hook.secret.slice(6));
    expect(JSON.stringify((await call(stack, 'GET', '/v1/webhooks', { token: company.owner.token })).body)).not.toContain('whsec_');

    const testDelivery = async (token: string) => {
      received = [];
      const answer = await call(stack, 'POST', `/v1/webhooks/${hook.id}/test`, { token });
      expect(answer.body.delivered).toBe(true);
      return at(hook.path)[0]!;
    };
    // During the overlap, a receiver holding either secret verifies.
    stack.clock.advance(24 * HOUR - SECOND);
    const during = await testDelivery((await addKeyHolder(stack, company.id)).token);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(hook.secret, during)).toBe(true);
    expect(verifies(fresh, during)).toBe(true);
    // The deliveries of events, through the queue, carry both as well.
    received = [];
    await runConsumer(stack.services, deliverWebhookEvent, { event_id: event.id, subscription_id: hook.id });
    expect(verifies(hook.secret, at(hook.path)[0]!)).toBe(true);
    expect(verifies(fresh, at(hook.path)[0]!)).toBe(true);

    // At 24 hours the old secret stops signing.
    stack.clock.advance(SECOND);
    const after = await testDelivery((await addKeyHolder(stack, company.id)).token);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(hook.secret, after)).toBe(false);
    expect(verifies(fresh, after)).toBe(true);
  });

  it('answers another company’s subscription as an unknown one', async () => {
    const company = await createTestCompany(stack);
    const theirs = await subscribe(await createTestCompany(stack), ['envelope.sent']);
    const answer = await call(stack, 'POST', `/v1/webhooks/${theirs.id}/rotate-secret`, { token: company.owner.token });
    expect([answer.status, errorCode(answer)]).toEqual([404, 'webhook_not_found']);
  });
});

describe('the download link of envelope.document_ready', () => {
  /** The link's answer, its body as bytes (a PDF is no text). */
  async function download(pathAndQuery: string) {
    const response = await stack.app.request(pathAndQuery);
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  }
  const code = (answer: { bytes: Uint8Array }) => JSON.parse(new TextDecoder().decode(answer.bytes)).error.code as string;

  it('serves the finished PDF for 24 hours with no other credential, for that envelope only', async () => {
    const company = await createTestCompany(stack);
    const hook = await subscribe(company, ['envelope.document_ready']);
    const envelopeId = await wholeLife(company);
    await vi.waitFor(() => expect(at(hook.path)).toHaveLength(1), eventually);
    const document = payloadOf(at(hook.path)[0]!).data.document!;
    expect(document.content_base64).toEqual(expect.any(String));
    const url = new URL(document.download_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE_URL}/v1/documents/${envelopeId}`);
    const link = `${url.pathname}${url.search}`;

    const answer = await download(link);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.pdf"$/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(createHash('sha256').update(answer.bytes).digest('hex')).toBe(document.sha256);
    expect(Buffer.from(answer.bytes).equals(Buffer.from(document.content_base64, 'base64'))).toBe(true);

    // Bent: another envelope of the company, another company's, an altered signature or expiry, a cut link.
    const sibling = await sendTestEnvelope(stack, company);
    const theirs = await sendTestEnvelope(stack, await createTestCompany(stack));
    const sig = url.searchParams.get('sig')!;
    const expires = Number(url.searchParams.get('expires'));
    const bent = [
      link.replace(envelopeId, sibling.envelopeId),
      link.replace(envelopeId, theirs.envelopeId),
      link.replace(`sig=${sig}`, `sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`),
      link.replace(`expires=${expires}`, `expires=${expires + 3600}`),
      `/v1/documents/${envelopeId}?expires=${expires}`,
      `/v1/documents/${envelopeId}`,
      link.replace(envelopeId, 'env_nope'),
      // A part given twice, even the same value again: which copy counts would be the reader's guess.
      `${link}&expires=${expires}`,
      `${link}&sig=${sig}`,
      `${link}&expires=${expires + 3600}&sig=${sig}`,
      `/v1/documents/${envelopeId}?sig=${sig}&expires=${expires}&expires=${expires}`,
      `${link}&ref=mail&ref=mail`,
    ];
    for (const path of bent) {
      const refused = await download(path);
      expect([refused.status, code(refused)], path).toEqual([404, 'document_not_found']);
    }

    // Valid to the last millisecond before `expires`; gone from then on.
    const now = stack.clock.now();
    try {
      stack.clock.set(new Date(expires * 1000 - 1));
      expect((await download(link)).status).toBe(200);
      stack.clock.set(new Date(expires * 1000));
      const expired = await download(link);
      expect([expired.status, code(expired)]).toEqual([410, 'download_link_expired']);
    } finally {
      stack.clock.set(now);
    }
  });
});
