import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, envelopes, webhookEvents } from '../../src/data/schema.js';
import { remindEnvelope } from '../../src/domain/envelopes/remind-envelope.js';
import { runConsumer } from '../../src/queue/consumers.js';
import { call, errorCode } from '../support/http.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { drained } from '../support/drained.js';

let stack: TestStack;
let company: TestCompany;
let templateId: string;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
  templateId = (await createTestTemplate(stack, company.id)).id;
});
afterAll(() => stack.close());

const voidIt = (id: string, body?: unknown, token = ADMIN_TOKEN) => call(stack, 'POST', `/admin/v1/envelopes/${id}/void`, { token, body });

async function sendOne(): Promise<string> {
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: templateId,
      recipients: [
        { role: 'Client', name: 'Cleo', email: `cleo-${crypto.randomUUID().slice(0, 6)}@example.test` },
        { role: 'Witness', name: 'Will', email: 'will@example.test' },
      ],
    },
  });
  expect(answer.status).toBe(201);
  return answer.body.envelope_id;
}

describe('POST /admin/v1/envelopes/{id}/void', () => {
  it('voids a sent envelope: its links die, one audit row and one envelope.voided event, and again answers the same', async () => {
    const id = await sendOne();
    const voided = await voidIt(id, { reason: 'Sent to the wrong client' });
    expect(voided.status).toBe(200);
    expect(voided.body).toEqual({ envelope_id: id, status: 'voided', voided_at: expect.stringMatching(/Z$/) });
    const links = await call(stack, 'GET', `/v1/envelopes/${id}/signing-links`, { token: company.owner.token });
    expect(links.body.signing_urls.every((entry: { signing_url: string | null }) => entry.signing_url === null)).toBe(true);

    const again = await voidIt(id);
    expect(again.body).toEqual(voided.body);
    const { db } = stack.services.database;
    const audit = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, id), eq(auditEvents.kind, 'envelope.voided')));
    const events = await db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.envelopeId, id), eq(webhookEvents.kind, 'envelope.voided')));
    expect([audit.length, events.length]).toEqual([1, 1]);
    expect(events[0]!.payload).toMatchObject({ envelope: { envelope_id: id, status: 'voided' }, reason: 'Sent to the wrong client' });
    expect(JSON.stringify(events[0]!.payload)).not.toContain('/sign/');
  });

  it('stops reminders of a voided envelope', async () => {
    const id = await sendOne();
    // The send's own e-mails go out after its answer: let them arrive before voiding.
    await vi.waitFor(() => expect(stack.services.mailbox.list().some((mail) => mail.tags?.envelope_id === id)).toBe(true));
    await voidIt(id);
    const before = stack.services.mailbox.list().length;
    await runConsumer(stack.services, remindEnvelope, { envelope_id: id });
    await drained(stack);
    expect(stack.services.mailbox.list().length).toBe(before);
  });

  it('refuses an envelope that has finished, an unknown id, a bad body and a missing token', async () => {
    const id = await sendOne();
    await stack.services.database.db.update(envelopes).set({ status: 'expired' }).where(eq(envelopes.id, id));
    const finished = await voidIt(id);
    expect([finished.status, errorCode(finished)]).toEqual([409, 'conflict']);
    const unknown = await voidIt('env_unknown');
    expect([unknown.status, errorCode(unknown)]).toEqual([404, 'envelope_not_found']);
    const tooLong = await voidIt(await sendOne(), { reason: 'x'.repeat(501) });
    expect([tooLong.status, errorCode(tooLong)]).toEqual([422, 'validation_failed']);
    expect((await voidIt(await sendOne(), { reason: 'x'.repeat(500) })).status).toBe(200);
    expect((await voidIt(id, undefined, 'wrong-token-0123456789')).status).toBe(401);
  });
});
