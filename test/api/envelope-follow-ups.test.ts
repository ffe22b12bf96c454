/**
 * What a send hands to the queue, and the consumers that act on it later: the signing e-mails
 * (sequential and parallel), reminders, expiry, and webhook dispatch and delivery (Standard
 * Webhooks signatures, one recorded row per attempt, no private targets). The consumers are called
 * directly where time matters, with the stack's ManualClock.
 *
 * One file although long: every consumer acts on what one send handed over; the behaviours share
 * one stack, whose embedded database takes seconds to open, and the factories of this subject.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, envelopes, recipients, type RecipientStatus, webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../src/data/schema.js';
import { expireEnvelope } from '../../src/domain/envelopes/expire-envelope.js';
import { queueTopics as topics } from '../../src/domain/queue-topics.js';
import { REMINDER_ROUNDS, remindEnvelope } from '../../src/domain/envelopes/remind-envelope.js';
import { verifySigningToken } from '../../src/domain/envelopes/signing-links.js';
import { deliverWebhookEvent, dispatchWebhookEvent } from '../../src/domain/webhooks/dispatch-event.js';
import { sealSecret, secretKeysOf } from '../../src/domain/webhooks/secret-box.js';
import { newWebhookSecret } from '../../src/domain/webhooks/standard-webhooks.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import type { QueueMessage } from '../../src/ports/queue.js';
import { runConsumer } from '../../src/queue/consumers.js';
import { call } from '../support/http.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { watchHandOvers } from '../support/queue-hand-over.js';
import { drained, outboxRelayed } from '../support/drained.js';
import { unique } from '../support/unique.js';

const DAY = 24 * 3600 * 1000;

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

type Entry = { recipient_id: string; name: string; email: string; recipient_type: string; signing_url: string | null };
type Sent = { envelope_id: string; title: string; signing_urls: Entry[] | null; created_at: string };

/** Sends a template of the company with one recipient per unlocked role (role names as given). */
async function sendTemplate(company: TestCompany, template: Partial<TemplateDefinition> = {}, extra: Record<string, unknown> = {}) {
  const created = await createTestTemplate(stack, company.id, template);
  const roles = (
    template.roles ?? [
      { name: 'Client', locked: false },
      { name: 'Witness', locked: false },
    ]
  ).filter((role) => !role.locked);
  const tag = unique();
  const people = roles.map((role) => ({ role: role.name, name: `${role.name} Person`, email: `${role.name.toLowerCase()}-${tag}@example.test` }));
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: { template_id: created.id, recipients: people, ...extra },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  // The follow-ups are handed to the queue just after the answer: wait until they are.
  await outboxRelayed(stack, company.id);
  const stored = await stack.services.database.db
    .select()
    .from(recipients)
    .where(eq(recipients.envelopeId, answer.body.envelope_id))
    .orderBy(asc(recipients.order), asc(recipients.position));
  const idOf = (role: string) => stored.find((row) => row.role === role)!.id;
  return { sent: answer.body as Sent, people, stored, idOf };
}

const mailsOf = (envelopeId: string) => stack.services.mailbox.list().filter((mail) => mail.tags?.envelope_id === envelopeId);

/** Replaces the queue with a recorder, so follow-ups are seen but nothing runs by itself. */
function captureQueue() {
  const original = stack.services.queue;
  const messages: QueueMessage[] = [];
  stack.services.queue = { publish: async (batch) => void messages.push(...batch) };
  return { messages, restore: () => void (stack.services.queue = original) };
}

async function withClockAt<T>(at: Date, run: () => Promise<T>): Promise<T> {
  const delta = at.getTime() - stack.clock.now().getTime();
  stack.clock.advance(delta);
  try {
    return await run();
  } finally {
    stack.clock.advance(-delta);
  }
}

const setRecipientStatus = (recipientId: string, status: RecipientStatus) =>
  stack.services.database.db.update(recipients).set({ status }).where(eq(recipients.id, recipientId));

async function envelopeOfRecipient(recipientId: string) {
  const [row] = await stack.services.database.db.select({ envelopeId: recipients.envelopeId }).from(recipients).where(eq(recipients.id, recipientId));
  return row?.envelopeId ?? null;
}

const linkIn = (text: string) => /https?:\/\/\S+\/sign\/\S+/.exec(text)?.[0];

describe('signing e-mails at send', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });

  it('sequential: only the signers of the lowest order get one, with subject, message and their own link', async () => {
    const { sent, people } = await sendTemplate(company, { email_subject: 'Please sign the NDA', email_message: 'Thanks, the legal team.' });
    await vi.waitFor(() => expect(mailsOf(sent.envelope_id)).toHaveLength(1));
    await drained(stack);
    const mails = mailsOf(sent.envelope_id);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const client = sent.signing_urls![0]!;
    expect(mail!.to).toEqual({ name: people[0]!.name, email: people[0]!.email });
    expect(mail!.subject).toBe('Please sign the NDA');
    expect(mail!.text).toContain('Thanks, the legal team.');
    expect(mail!.text).toContain(sent.title);
    expect(linkIn(mail!.text)).toBe(client.signing_url);
    expect(mail!.tags).toMatchObject({ recipient_id: client.recipient_id, kind: 'signing_request' });
  });

  it('sequential: every signer sharing the lowest order gets one', async () => {
    const { sent, idOf } = await sendTemplate(company, {
      roles: [
        { name: 'Buyer', type: 'signer', order: 1, locked: false },
        { name: 'Seller', type: 'signer', order: 1, locked: false },
        { name: 'Agent', type: 'signer', order: 2, locked: false },
        { name: 'Counsel', type: 'cc', order: 3, locked: true, recipient: { name: 'Carl Counsel', email: 'counsel@example.test' } },
      ],
      fields: [],
    });
    await vi.waitFor(() => expect(mailsOf(sent.envelope_id)).toHaveLength(2));
    await drained(stack);
    expect(
      mailsOf(sent.envelope_id)
        .map((mail) => mail.tags?.recipient_id)
        .sort(),
    ).toEqual([idOf('Buyer'), idOf('Seller')].sort());
  });

  it('parallel: every signer gets one with their own link, the cc none', async () => {
    const { sent, people } = await sendTemplate(
      company,
      { signing_order: 'parallel' },
      { email_subject: 'Sign when you can', email_message: 'Request message.' },
    );
    await vi.waitFor(() => expect(mailsOf(sent.envelope_id)).toHaveLength(2));
    await drained(stack);
    const mails = mailsOf(sent.envelope_id);
    expect(mails).toHaveLength(2);
    for (const person of people) {
      const mail = mails.find((m) => m.to.email === person.email)!;
      const entry = sent.signing_urls!.find((e) => e.email === person.email)!;
      expect(mail.subject).toBe('Sign when you can');
      expect(mail.text).toContain('Request message.');
      expect(linkIn(mail.text)).toBe(entry.signing_url);
    }
    expect(mails.some((mail) => mail.to.email === 'counsel@example.test')).toBe(false);
  });

  it('sends working links even when the template does not share them with the sender', async () => {
    const { sent, idOf } = await sendTemplate(company, { share_signing_links: false });
    expect(sent.signing_urls).toBeNull();
    await vi.waitFor(() => expect(mailsOf(sent.envelope_id)).toHaveLength(1));
    const link = linkIn(mailsOf(sent.envelope_id)[0]!.text)!;
    expect(link.startsWith(`${BASE_URL}/sign/`)).toBe(true);
    const verified = await verifySigningToken(stack.services.config.tokenSecret, link.slice(`${BASE_URL}/sign/`.length), envelopeOfRecipient);
    expect(verified).toEqual({ recipientId: idOf('Client'), envelopeId: sent.envelope_id });
  });

  it('hands over e-mails, the webhook event, the first reminder and the expiry, each once', async () => {
    const queue = captureQueue();
    let sendResult: Awaited<ReturnType<typeof sendTemplate>>;
    try {
      sendResult = await sendTemplate(company, { expiry_days: 10, reminders: { first_after_days: 2, every_days: 3 } });
    } finally {
      queue.restore();
    }
    const { sent, idOf } = sendResult;
    const created = new Date(sent.created_at).getTime();
    const [event] = await stack.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, sent.envelope_id));
    expect(queue.messages).toEqual([
      { topic: topics.signingEmail, body: { envelope_id: sent.envelope_id, recipient_id: idOf('Client'), reminder: false }, dedupeId: expect.any(String) },
      { topic: topics.webhookDispatch, body: { event_id: event!.id }, dedupeId: event!.id },
      { topic: topics.remind, body: { envelope_id: sent.envelope_id }, notBefore: new Date(created + 2 * DAY), dedupeId: expect.any(String) },
      { topic: topics.expire, body: { envelope_id: sent.envelope_id }, notBefore: new Date(created + 10 * DAY), dedupeId: expect.any(String) },
    ]);
    expect(new Set(queue.messages.map((message) => message.dedupeId)).size).toBe(4);
  });
});

describe('reminders (remindEnvelope)', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });

  /** Runs the consumer and returns what it published (the real queue still runs it). */
  async function remind(envelopeId: string, round?: number) {
    const handOvers = watchHandOvers(stack.services.queue);
    try {
      await runConsumer(stack.services, remindEnvelope, round ? { envelope_id: envelopeId, round } : { envelope_id: envelopeId });
      return handOvers.messages();
    } finally {
      handOvers.stop();
    }
  }

  const reminderMails = (envelopeId: string) => mailsOf(envelopeId).filter((mail) => mail.tags?.kind === 'reminder');

  it('reminds the signer whose turn it is and schedules the next reminder', async () => {
    const { sent, idOf } = await sendTemplate(company, { reminders: { first_after_days: 2, every_days: 3 }, email_subject: 'Please sign the NDA' });
    await vi.waitFor(() => expect(mailsOf(sent.envelope_id)).toHaveLength(1));
    const published = await withClockAt(new Date(new Date(sent.created_at).getTime() + 2 * DAY), async () => {
      const messages = await remind(sent.envelope_id);
      expect(messages).toEqual([
        {
          topic: topics.signingEmail,
          body: { envelope_id: sent.envelope_id, recipient_id: idOf('Client'), reminder: true, round: 1 },
          dedupeId: expect.any(String),
        },
        {
          topic: topics.remind,
          body: { envelope_id: sent.envelope_id, round: 2 },
          notBefore: new Date(stack.clock.now().getTime() + 3 * DAY),
          dedupeId: expect.any(String),
        },
      ]);
      await vi.waitFor(() => expect(reminderMails(sent.envelope_id)).toHaveLength(1));
      return messages;
    });
    expect(published).toHaveLength(2);
    const [mail] = reminderMails(sent.envelope_id);
    expect(mail!.to.email).toMatch(/^client-/);
    expect(mail!.subject).toBe('Reminder: Please sign the NDA');
    expect(linkIn(mail!.text)).toBe(sent.signing_urls![0]!.signing_url);
  });

  it('moves to the next order once the first signers have signed, and stops when all have', async () => {
    const { sent, idOf } = await sendTemplate(company);
    await setRecipientStatus(idOf('Client'), 'signed');
    const second = await remind(sent.envelope_id, 2);
    expect(second.filter((m) => m.topic === topics.signingEmail).map((m) => m.body.recipient_id)).toEqual([idOf('Witness')]);
    expect(second.find((m) => m.topic === topics.remind)?.body).toEqual({ envelope_id: sent.envelope_id, round: 3 });
    await vi.waitFor(() => expect(reminderMails(sent.envelope_id).map((mail) => mail.tags?.recipient_id)).toEqual([idOf('Witness')]));

    await setRecipientStatus(idOf('Witness'), 'signed');
    expect(await remind(sent.envelope_id, 3)).toEqual([]);
  });

  it('parallel: reminds every signer who has not signed', async () => {
    const { sent, idOf } = await sendTemplate(company, {
      signing_order: 'parallel',
      roles: [
        { name: 'Alpha', type: 'signer', order: 1, locked: false },
        { name: 'Beta', type: 'signer', order: 2, locked: false },
        { name: 'Gamma', type: 'signer', order: 3, locked: false },
        { name: 'Copy', type: 'cc', order: 4, locked: false },
      ],
      fields: [],
    });
    await setRecipientStatus(idOf('Beta'), 'signed');
    const messages = await remind(sent.envelope_id);
    expect(
      messages
        .filter((m) => m.topic === topics.signingEmail)
        .map((m) => m.body.recipient_id)
        .sort(),
    ).toEqual([idOf('Alpha'), idOf('Gamma')].sort());
    await vi.waitFor(() => expect(reminderMails(sent.envelope_id)).toHaveLength(2));
    await drained(stack);
    expect(
      reminderMails(sent.envelope_id)
        .map((mail) => mail.tags?.recipient_id)
        .sort(),
    ).toEqual([idOf('Alpha'), idOf('Gamma')].sort());
  });

  // A signer who opened the envelope ('viewed') has not signed: the reminder goes to them, and in
  // sequential order the turn stays with them rather than passing to the Witness.
  it('still reminds a signer who viewed but did not sign, and keeps the turn with them', async () => {
    const { sent, idOf } = await sendTemplate(company);
    await setRecipientStatus(idOf('Client'), 'viewed');
    const messages = await remind(sent.envelope_id);
    expect(messages.filter((m) => m.topic === topics.signingEmail).map((m) => m.body.recipient_id)).toEqual([idOf('Client')]);
  });

  it('does not schedule a reminder past the expiry, and does nothing once expired', async () => {
    const { sent } = await sendTemplate(company, { expiry_days: 30, reminders: { first_after_days: 2, every_days: 3 } });
    const created = new Date(sent.created_at).getTime();
    const late = await withClockAt(new Date(created + 28 * DAY), () => remind(sent.envelope_id, 9));
    expect(late.map((m) => m.topic)).toEqual([topics.signingEmail]);
    const after = await withClockAt(new Date(created + 30 * DAY), () => remind(sent.envelope_id, 10));
    expect(after).toEqual([]);
  });

  it(`stops after ${REMINDER_ROUNDS} rounds, even for an envelope that never expires`, async () => {
    const { sent, idOf } = await sendTemplate(company, { expiry_days: null, reminders: { first_after_days: 1, every_days: 1 } });
    const before = await remind(sent.envelope_id, REMINDER_ROUNDS - 1);
    expect(before.find((m) => m.topic === topics.remind)?.body).toEqual({ envelope_id: sent.envelope_id, round: REMINDER_ROUNDS });
    const last = await remind(sent.envelope_id, REMINDER_ROUNDS);
    expect(last).toEqual([
      {
        topic: topics.signingEmail,
        body: { envelope_id: sent.envelope_id, recipient_id: idOf('Client'), reminder: true, round: REMINDER_ROUNDS },
        dedupeId: expect.any(String),
      },
    ]);
    expect(await remind(sent.envelope_id, REMINDER_ROUNDS + 1)).toEqual([]);
    await drained(stack);
    expect(reminderMails(sent.envelope_id)).toHaveLength(2);
  });

  it('does nothing for a voided envelope, one without reminders, or one that is gone', async () => {
    const voided = await sendTemplate(company);
    await stack.services.database.db.update(envelopes).set({ status: 'voided' }).where(eq(envelopes.id, voided.sent.envelope_id));
    expect(await remind(voided.sent.envelope_id)).toEqual([]);
    await drained(stack);
    expect(reminderMails(voided.sent.envelope_id)).toEqual([]);

    const quiet = await sendTemplate(company, { reminders: null });
    expect(await remind(quiet.sent.envelope_id)).toEqual([]);
    expect(await remind(`env_${'n'.repeat(22)}`)).toEqual([]);
  });
});

describe('expiry (expireEnvelope)', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });

  async function expire(envelopeId: string) {
    const handOvers = watchHandOvers(stack.services.queue);
    try {
      await runConsumer(stack.services, expireEnvelope, { envelope_id: envelopeId });
      return handOvers.messages();
    } finally {
      handOvers.stop();
    }
  }

  async function trail(envelopeId: string) {
    const { db } = stack.services.database;
    const [envelope] = await db.select({ status: envelopes.status }).from(envelopes).where(eq(envelopes.id, envelopeId));
    const audit = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.kind, 'envelope.expired')));
    const events = await db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.envelopeId, envelopeId), eq(webhookEvents.kind, 'envelope.expired')));
    return { status: envelope?.status, audit, events };
  }

  it('does nothing before the expiry', async () => {
    const { sent } = await sendTemplate(company, { expiry_days: 30 });
    const created = new Date(sent.created_at).getTime();
    const published = await withClockAt(new Date(created + 30 * DAY - 1000), () => expire(sent.envelope_id));
    expect(published).toEqual([]);
    expect(await trail(sent.envelope_id)).toEqual({ status: 'sent', audit: [], events: [] });
  });

  it('expires a sent envelope past its expiry once: status, audit event, webhook event, dispatch', async () => {
    const { sent } = await sendTemplate(company, { expiry_days: 30 });
    const due = new Date(new Date(sent.created_at).getTime() + 30 * DAY);
    await withClockAt(due, async () => {
      const published = await expire(sent.envelope_id);
      const { status, audit, events } = await trail(sent.envelope_id);
      expect(status).toBe('expired');
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ companyId: company.id, actorType: 'system' });
      expect(audit[0]!.createdAt.toISOString()).toBe(due.toISOString());
      expect(events).toHaveLength(1);
      expect(events[0]!.payload).toEqual({
        envelope: { envelope_id: sent.envelope_id, status: 'expired', title: sent.title, sender: { email: company.owner.ownerEmail } },
        occurred_at: due.toISOString(),
      });
      expect(JSON.stringify(events[0]!.payload)).not.toContain('/sign/');
      expect(published).toEqual([{ topic: topics.webhookDispatch, body: { event_id: events[0]!.id }, dedupeId: events[0]!.id }]);

      // A repeated delivery changes nothing and hands over nothing: the dispatch is in the outbox,
      // which the sweeper relays should the first relay have failed.
      expect(await expire(sent.envelope_id)).toEqual([]);
      const again = await trail(sent.envelope_id);
      expect([again.status, again.audit.length, again.events.length]).toEqual(['expired', 1, 1]);
    });
  });

  // The change and its records are one batch: a failed attempt leaves nothing, and the retry does it all.
  it('still records the expiry when the first attempt failed after the status change', async () => {
    const { sent } = await sendTemplate(company, { expiry_days: 1 });
    await withClockAt(new Date(new Date(sent.created_at).getTime() + DAY), async () => {
      const spy = vi.spyOn(stack.services.database, 'atomic').mockRejectedValueOnce(new Error('connection reset'));
      try {
        await expect(runConsumer(stack.services, expireEnvelope, { envelope_id: sent.envelope_id })).rejects.toThrow();
      } finally {
        spy.mockRestore();
      }
      // The queue delivers the message again.
      await expire(sent.envelope_id);
      const { status, audit, events } = await trail(sent.envelope_id);
      expect([status, audit.length, events.length]).toEqual(['expired', 1, 1]);
    });
  });

  it('leaves a voided envelope, one without expiry, and an unknown id alone', async () => {
    const voided = await sendTemplate(company, { expiry_days: 1 });
    await stack.services.database.db.update(envelopes).set({ status: 'voided' }).where(eq(envelopes.id, voided.sent.envelope_id));
    const endless = await sendTemplate(company, { expiry_days: null });
    await withClockAt(new Date(stack.clock.now().getTime() + 400 * DAY), async () => {
      expect(await expire(voided.sent.envelope_id)).toEqual([]);
      expect(await expire(endless.sent.envelope_id)).toEqual([]);
      expect(await expire(`env_${'n'.repeat(22)}`)).toEqual([]);
    });
    expect((await trail(voided.sent.envelope_id)).status).toBe('voided');
    expect((await trail(endless.sent.envelope_id)).status).toBe('sent');
  });
});

describe('webhooks: dispatch and delivery', () => {
  type Received = { headers: IncomingHttpHeaders; body: string; url: string };
  let server: Server;
  let port: number;
  let received: Received[] = [];
  let answerWith = 200;
  let company: TestCompany;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' });
        if (answerWith >= 300 && answerWith < 400) res.setHeader('location', '/elsewhere');
        res.statusCode = answerWith;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    company = await createTestCompany(stack);
  });
  afterAll(async () => {
    stack.services.config.allowPrivateWebhookTargets = undefined;
    await new Promise((resolve) => server.close(resolve));
  });

  async function subscribe(companyId: string, options: { events?: string[]; url?: string; deleted?: boolean } = {}) {
    // Written directly, so that targets the subscribe endpoint would refuse can be tried at delivery.
    const id = crypto.randomUUID();
    const secret = newWebhookSecret();
    const sealed = await sealSecret(await secretKeysOf(stack.services.config), id, secret);
    const [row] = await stack.services.database.db
      .insert(webhookSubscriptions)
      .values({
        id,
        companyId,
        url: options.url ?? `http://127.0.0.1:${port}/hooks/${unique()}`,
        events: options.events ?? ['envelope.sent', 'envelope.expired'],
        secretCiphertext: sealed.ciphertext,
        secretKeyId: sealed.keyId,
        deletedAt: options.deleted ? stack.clock.now() : null,
      })
      .returning();
    return { ...row!, secret };
  }

  /** A send whose follow-ups are only recorded; returns its `envelope.sent` event id. */
  async function quietSend() {
    const queue = captureQueue();
    try {
      const { sent } = await sendTemplate(company);
      const dispatch = queue.messages.find((message) => message.topic === topics.webhookDispatch)!;
      return { sent, eventId: String(dispatch.body.event_id) };
    } finally {
      queue.restore();
    }
  }

  async function dispatch(eventId: string) {
    const queue = captureQueue();
    try {
      await runConsumer(stack.services, dispatchWebhookEvent, { event_id: eventId });
      return queue.messages;
    } finally {
      queue.restore();
    }
  }

  const attempts = (eventId: string, subscriptionId: string) =>
    stack.services.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.subscriptionId, subscriptionId)))
      .orderBy(asc(webhookDeliveries.attempt));

  /** Standard Webhooks: base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
  function expectedSignature(secret: string, id: string, timestamp: string, body: string) {
    return `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
      .update(`${id}.${timestamp}.${body}`)
      .digest('base64')}`;
  }

  it('dispatches one delivery per live subscription of the company that wants the event', async () => {
    const wanted = await subscribe(company.id);
    await subscribe(company.id, { events: ['envelope.completed'] });
    await subscribe(company.id, { deleted: true });
    const stranger = await createTestCompany(stack);
    await subscribe(stranger.id);
    const { eventId } = await quietSend();
    const messages = await dispatch(eventId);
    // Subscriptions made by earlier tests of this company want the event too; none other appears.
    const own = await stack.services.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.companyId, company.id));
    const expected = own.filter((s) => !s.deletedAt && s.events.includes('envelope.sent')).map((s) => s.id);
    expect(messages.map((m) => m.topic)).toEqual(expected.map(() => topics.webhookDeliver));
    expect(messages.map((m) => m.body.subscription_id).sort()).toEqual(expected.sort());
    expect(messages.map((m) => m.body.subscription_id)).toContain(wanted.id);
    expect(await dispatch(`msg_${'n'.repeat(24)}`)).toEqual([]);
  });

  it('delivers a signed {type, timestamp, data} without signing links, records the attempt, and throws on a 500', async () => {
    stack.services.config.allowPrivateWebhookTargets = true;
    received = [];
    answerWith = 200;
    const subscription = await subscribe(company.id);
    const { sent, eventId } = await quietSend();

    await runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: subscription.id });
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery!.url).toBe(new URL(subscription.url).pathname);
    expect(delivery!.headers['content-type']).toMatch(/^application\/json/);
    expect(delivery!.headers['webhook-id']).toBe(eventId);
    const timestamp = delivery!.headers['webhook-timestamp'] as string;
    expect(Number(timestamp)).toBe(Math.floor(stack.clock.now().getTime() / 1000));
    const signatures = String(delivery!.headers['webhook-signature']).split(' ');
    expect(signatures).toContain(expectedSignature(subscription.secret, eventId, timestamp, delivery!.body));
    // A signature under another secret does not match.
    expect(signatures).not.toContain(expectedSignature(newWebhookSecret(), eventId, timestamp, delivery!.body));
    expect(JSON.stringify(delivery!.headers)).not.toContain(subscription.secret);

    const payload = JSON.parse(delivery!.body);
    expect(Object.keys(payload).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(payload.type).toBe('envelope.sent');
    expect(payload.timestamp).toBe(sent.created_at);
    expect(payload.data.envelope).toEqual({ envelope_id: sent.envelope_id, status: 'sent', title: sent.title, sender: { email: company.owner.ownerEmail } });
    expect(delivery!.body).not.toContain('/sign/');
    for (const entry of sent.signing_urls!) if (entry.signing_url) expect(delivery!.body).not.toContain(entry.signing_url.split('.').pop()!);
    expect(await attempts(eventId, subscription.id)).toMatchObject([{ attempt: 1, statusCode: 200, error: null, companyId: company.id }]);

    // A failing receiver: the attempt is recorded and the consumer throws, so the queue retries.
    answerWith = 500;
    stack.clock.advance(60_000);
    try {
      await expect(runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: subscription.id })).rejects.toThrow();
    } finally {
      stack.clock.advance(-60_000);
    }
    expect(received).toHaveLength(2);
    // Same webhook-id across attempts, each attempt signed anew with its own timestamp.
    const retry = received[1]!;
    expect(retry.headers['webhook-id']).toBe(eventId);
    expect(Number(retry.headers['webhook-timestamp'])).toBe(Number(timestamp) + 60);
    expect(String(retry.headers['webhook-signature']).split(' ')).toContain(
      expectedSignature(subscription.secret, eventId, retry.headers['webhook-timestamp'] as string, retry.body),
    );
    expect((await attempts(eventId, subscription.id)).map(({ attempt, statusCode }) => [attempt, statusCode])).toEqual([
      [1, 200],
      [2, 500],
    ]);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    stack.services.config.allowPrivateWebhookTargets = true;
    received = [];
    answerWith = 302;
    const subscription = await subscribe(company.id);
    const { eventId } = await quietSend();
    await expect(runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: subscription.id })).rejects.toThrow();
    expect(received.map((r) => r.url)).toEqual([new URL(subscription.url).pathname]);
    expect((await attempts(eventId, subscription.id)).map((a) => a.statusCode)).toEqual([302]);
    answerWith = 200;
  });

  it('refuses private and loopback targets unless allowed: the refusal is recorded, no request is made', async () => {
    stack.services.config.allowPrivateWebhookTargets = false;
    received = [];
    answerWith = 200;
    const { eventId } = await quietSend();
    for (const url of [
      `http://127.0.0.1:${port}/hooks`,
      `http://localhost:${port}/hooks`,
      'http://10.0.0.8/hooks',
      'http://192.168.1.20/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/hooks',
    ]) {
      const subscription = await subscribe(company.id, { url });
      await runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: subscription.id });
      const rows = await attempts(eventId, subscription.id);
      expect(rows, url).toHaveLength(1);
      expect(rows[0]).toMatchObject({ attempt: 1, statusCode: null, errorType: 'refused_target' });
    }
    expect(received).toEqual([]);
  });

  it('never delivers an event to another company’s subscription', async () => {
    stack.services.config.allowPrivateWebhookTargets = true;
    received = [];
    const stranger = await createTestCompany(stack);
    const theirs = await subscribe(stranger.id);
    const { eventId } = await quietSend();
    await runConsumer(stack.services, deliverWebhookEvent, { event_id: eventId, subscription_id: theirs.id });
    expect(received).toEqual([]);
    expect(await attempts(eventId, theirs.id)).toEqual([]);
  });

  it('runs the whole chain through the queue: a send ends in one signed delivery', async () => {
    stack.services.config.allowPrivateWebhookTargets = true;
    received = [];
    answerWith = 200;
    const own = await createTestCompany(stack);
    const subscription = await subscribe(own.id, { events: ['envelope.sent'] });
    const { sent } = await sendTemplate(own);
    await vi.waitFor(() => expect(received).toHaveLength(1));
    const [delivery] = received;
    expect(JSON.parse(delivery!.body).data.envelope.envelope_id).toBe(sent.envelope_id);
    expect(String(delivery!.headers['webhook-signature']).split(' ')).toContain(
      expectedSignature(subscription.secret, delivery!.headers['webhook-id'] as string, delivery!.headers['webhook-timestamp'] as string, delivery!.body),
    );
    await vi.waitFor(async () => expect(await attempts(delivery!.headers['webhook-id'] as string, subscription.id)).toHaveLength(1));
  });
});
