/**
 * The queue delivers at least once: a signing e-mail's message delivered again (a consumer retry)
 * must not send the e-mail twice. The consumers are called directly on the embedded stack, whose
 * DevMailbox drops an e-mail whose idempotency key it has already delivered, as the provider does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevMailbox } from '../../src/adapters/embedded/dev-mailbox.js';
import { queueTopics as topics } from '../../src/domain/queue-topics.js';
import { remindEnvelope } from '../../src/domain/envelopes/remind-envelope.js';
import { sendSigningEmail } from '../../src/domain/envelopes/signing-email.js';
import type { QueueMessage } from '../../src/ports/queue.js';
import { call } from '../support/http.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';
import { drained } from '../support/drained.js';
import { runConsumer } from '../../src/queue/consumers.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

/** Runs `run` with the queue replaced by a recorder: what it publishes is seen, and nothing runs by itself. */
async function captured(run: () => Promise<unknown>): Promise<QueueMessage[]> {
  const original = stack.services.queue;
  const messages: QueueMessage[] = [];
  stack.services.queue = { publish: async (batch) => void messages.push(...batch) };
  try {
    await run();
  } finally {
    stack.services.queue = original;
  }
  return messages;
}

/** Sends an envelope; its first signer's request is also queued, and the queue may deliver it meanwhile. */
async function sendEnvelope(): Promise<{ envelopeId: string; clientId: string }> {
  const template = await createTestTemplate(stack, company.id);
  const tag = crypto.randomUUID().slice(0, 8);
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: template.id,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `client-${tag}@example.test` },
        { role: 'Witness', name: 'Will Witness', email: `witness-${tag}@example.test` },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { envelopeId: answer.body.envelope_id, clientId: answer.body.signing_urls[0].recipient_id };
}

const mailsOf = (envelopeId: string) => stack.services.mailbox.list().filter((mail) => mail.tags?.envelope_id === envelopeId);
const signingEmailsIn = (messages: QueueMessage[]) => messages.filter((message) => message.topic === topics.signingEmail);

describe('a signing e-mail delivered again', () => {
  it('sends the signing request once when its consumer runs twice for the same message', async () => {
    const { envelopeId, clientId } = await sendEnvelope();
    // The message the send queued for the first signer, delivered twice (and maybe by the queue too).
    const request = { envelope_id: envelopeId, recipient_id: clientId, reminder: false };
    await runConsumer(stack.services, sendSigningEmail, request);
    await runConsumer(stack.services, sendSigningEmail, structuredClone(request));
    await drained(stack);
    expect(mailsOf(envelopeId)).toHaveLength(1);
    expect(mailsOf(envelopeId)[0]).toMatchObject({ tags: { kind: 'signing_request' }, idempotencyKey: `${envelopeId}.${clientId}.request` });
  });

  it('sends each reminder round once, and the next round again', async () => {
    const { envelopeId, clientId } = await sendEnvelope();
    await runConsumer(stack.services, sendSigningEmail, { envelope_id: envelopeId, recipient_id: clientId, reminder: false });
    const first = signingEmailsIn(await captured(() => runConsumer(stack.services, remindEnvelope, { envelope_id: envelopeId })));
    expect(first.map((message) => message.body)).toEqual([{ envelope_id: envelopeId, recipient_id: clientId, reminder: true, round: 1 }]);
    await runConsumer(stack.services, sendSigningEmail, first[0]!.body);
    await runConsumer(stack.services, sendSigningEmail, first[0]!.body);
    const reminders = () => mailsOf(envelopeId).filter((mail) => mail.tags?.kind === 'reminder');
    expect(reminders()).toHaveLength(1);

    const second = signingEmailsIn(await captured(() => runConsumer(stack.services, remindEnvelope, { envelope_id: envelopeId, round: 2 })));
    await runConsumer(stack.services, sendSigningEmail, second[0]!.body);
    await runConsumer(stack.services, sendSigningEmail, second[0]!.body);
    expect(reminders().map((mail) => mail.idempotencyKey)).toEqual([
      `${envelopeId}.${second[0]!.body.recipient_id}.reminder.2`,
      `${envelopeId}.${first[0]!.body.recipient_id}.reminder.1`,
    ]);
    await drained(stack);
    expect(mailsOf(envelopeId)).toHaveLength(3);
  });
});

describe('DevMailbox', () => {
  const mail = (idempotencyKey: string) => ({ to: { name: 'A', email: 'a@example.test' }, subject: 'S', text: 'T', idempotencyKey });

  it('keeps one e-mail per idempotency key', async () => {
    const mailbox = new DevMailbox();
    await mailbox.send(mail('k1'));
    await mailbox.send(mail('k1'));
    await mailbox.send(mail('k2'));
    expect(mailbox.list().map((delivered) => delivered.idempotencyKey)).toEqual(['k2', 'k1']);
  });
});
