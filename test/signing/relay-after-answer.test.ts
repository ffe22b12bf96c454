/**
 * A signature's side effects (its `envelope.signed` webhook dispatch, the message that advances the
 * signing order) are handed to the queue after the signing page has answered, never on the way to
 * the answer: a queue that is slow keeps no signer waiting, and a queue that is down leaves the
 * signature done, its follow-ups relayed later by the sweeper.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxMessages, recipients } from '../../src/data/schema.js';
import { housekeeping } from '../../src/outbox/housekeeping.js';
import { SWEEP_GRACE_MS } from '../../src/outbox/outbox.js';
import type { Queue, QueueMessage } from '../../src/ports/queue.js';
import { drained } from '../support/drained.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { refuseNextRelay, watchHandOvers } from '../support/queue-hand-over.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 100 });
});
afterAll(() => stack.close());
const { expectLogged } = expectErrorLogs();

/** A link whose page was opened (its first view relayed too), so what follows is the signature's alone. */
async function openedLink() {
  const { links } = await sendTestEnvelope(stack, company);
  const link = links[0]!;
  const page = await call<string>(stack, 'GET', `/sign/${link.token}`);
  expect(page.status).toBe(200);
  await drained(stack);
  return { ...link, page: page.body };
}

/** Posts the signing form as the signer's browser does, from the page it was shown. */
function sign(token: string, page: string) {
  const form = new URLSearchParams({ form_token: /name="form_token" value="([^"]+)"/.exec(page)![1]!, consent: 'yes' });
  for (const [, name] of page.matchAll(/name="(field\.[^"]+)"/g)) form.set(name!, 'Cleo Client');
  return call(stack, 'POST', `/sign/${token}`, {
    rawBody: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin' },
  });
}

/** The outbox rows a signature writes: its event's dispatch and the advance of the signing order. */
const signatureRows = (recipientId: string) => [`msg_signed_${recipientId}`, `${recipientId}.signed.advance`];

async function relayedAt(ids: string[]) {
  const rows = await stack.services.database.db.select().from(outboxMessages).where(inArray(outboxMessages.id, ids));
  return Object.fromEntries(rows.map((row) => [row.id, row.relayedAt]));
}

/**
 * The queue takes the next outbox relay only once `release` is called: until then the relay waits,
 * as it would on a queue that is slow to answer.
 */
function holdNextRelay(queue: Queue) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: QueueMessage[] = [];
  const relay = queue.relayFromOutbox ? 'relayFromOutbox' : 'publish';
  const original = (queue as Required<Queue>)[relay].bind(queue) as Required<Queue>['relayFromOutbox'];
  type Outbox = { ids: string[]; relayedAt: Date };
  const spy = vi.spyOn(queue as Required<Queue>, relay).mockImplementationOnce(async (messages: QueueMessage[], outbox?: Outbox) => {
    held.push(...messages);
    await released;
    return original(messages, outbox!);
  });
  return { held, release, restore: () => spy.mockRestore() };
}

describe("a signature's side effects", () => {
  it('are handed to the queue after the page answered 303, not before', async () => {
    const link = await openedLink();
    const queue = holdNextRelay(stack.services.queue);
    try {
      const answer = await sign(link.token, link.page);
      // The answer is out while the queue has not taken the signature's follow-ups.
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(`/sign/${link.token}`);
      expect(await relayedAt(signatureRows(link.recipientId))).toEqual(Object.fromEntries(signatureRows(link.recipientId).map((id) => [id, null])));
      // Then they arrive, once the queue answers.
      await vi.waitFor(() => expect(queue.held.map((message) => message.dedupeId).sort()).toEqual(signatureRows(link.recipientId).sort()));
      queue.release();
      await drained(stack);
    } finally {
      queue.restore();
    }
    const relayed = await relayedAt(signatureRows(link.recipientId));
    expect(Object.values(relayed).every((at) => at instanceof Date)).toBe(true);
    expect(queue.held.find((message) => message.topic === 'webhook.dispatch')?.body).toEqual({ event_id: `msg_signed_${link.recipientId}` });
  });

  it('still answers 303 when the queue refuses them; the sweeper relays the rows later', async () => {
    const link = await openedLink();
    expectLogged(/^outbox relay failed; the sweeper will hand the messages over Error: queue unreachable/);
    const refused = refuseNextRelay(stack.services.queue, new Error('queue unreachable'));
    try {
      const answer = await sign(link.token, link.page);
      expect(answer.status).toBe(303);
      await vi.waitFor(() => expect(refused).toHaveBeenCalled());
      await drained(stack);
    } finally {
      refused.mockRestore();
    }
    // Signed all the same, and the follow-ups wait in the outbox.
    const [signer] = await stack.services.database.db.select().from(recipients).where(eq(recipients.id, link.recipientId));
    expect(signer?.status).toBe('signed');
    expect(await relayedAt(signatureRows(link.recipientId))).toEqual(Object.fromEntries(signatureRows(link.recipientId).map((id) => [id, null])));

    // The sweeper, as the cron trigger runs it once a request's own relay has had its time.
    const handOvers = watchHandOvers(stack.services.queue);
    let swept: (string | undefined)[];
    stack.clock.advance(SWEEP_GRACE_MS + 1000);
    try {
      await housekeeping(stack.services);
      swept = handOvers.messages().map((message) => message.dedupeId);
    } finally {
      stack.clock.advance(-(SWEEP_GRACE_MS + 1000));
      handOvers.stop();
    }
    expect(swept).toEqual(expect.arrayContaining(signatureRows(link.recipientId)));
    const relayed = await relayedAt(signatureRows(link.recipientId));
    expect(Object.values(relayed).every((at) => at instanceof Date)).toBe(true);
    const [row] = await stack.services.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.id, `msg_signed_${link.recipientId}`));
    expect(row?.topic).toBe('webhook.dispatch');
  });
});
