/**
 * The database failing at each write of the signing ceremony — the first view, the signature, the
 * decline — through the page, on the real domain: the signer gets the "try again" page (503), and
 * nothing of the change is anywhere (status, audit, events, outbox, e-mails); the same action
 * afterwards goes through, once.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, outboxMessages, recipients, webhookEvents } from '../../src/data/schema.js';
import { createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 100 });
});
afterAll(() => stack.close());

const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
afterEach(() => logged.mockClear());

/** A statement that fails only when the transaction runs it, after the others: the rollback is tested too. */
const failingStatement = (): PromiseLike<unknown> => ({
  then: (onfulfilled, onrejected) => Promise.reject(new Error('could not write to disk')).then(onfulfilled, onrejected),
});
function failNextWrite() {
  const atomic = stack.services.database.atomic;
  return vi.spyOn(stack.services.database, 'atomic').mockImplementationOnce((build) => atomic((q) => [...build(q), failingStatement()]));
}

async function sentEnvelope() {
  const { links } = await sendTestEnvelope(stack, company);
  // The send's own follow-ups settle first, so what is counted below is the signer's alone.
  await stack.services.inProcessQueue.drained();
  return links[0]!;
}

const get = async (token: string) => {
  const response = await stack.app.request(`/sign/${token}`);
  return { status: response.status, text: await response.text(), requestId: response.headers.get('x-request-id') };
};
async function postForm(path: string, fields: Record<string, string>, pageText: string) {
  const body = new URLSearchParams({ ...fields, form_token: /name="form_token" value="([^"]+)"/.exec(pageText)![1]! });
  const response = await stack.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin' },
    body: body.toString(),
  });
  return { status: response.status, text: await response.text() };
}
const signForm = (pageText: string) => {
  const fields: Record<string, string> = { consent: 'yes' };
  for (const [, name] of pageText.matchAll(/name="(field\.[^"]+)"/g)) fields[name!] = 'Cleo';
  return fields;
};

/** What the signer's change would have left: their status, and the rows written with it. */
async function traces(recipientId: string) {
  const { db } = stack.services.database;
  const [[person], audit, events, outbox] = await Promise.all([
    db.select().from(recipients).where(eq(recipients.id, recipientId)),
    db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.actorId, recipientId))),
    db.select().from(webhookEvents).where(eq(webhookEvents.companyId, company.id)),
    db.select().from(outboxMessages).where(eq(outboxMessages.companyId, company.id)),
  ]);
  return {
    status: person!.status,
    audit: audit
      .map((row) => row.kind)
      .filter((kind) => kind !== 'recipient.emailed')
      .sort(),
    events: events.length,
    outbox: outbox.length,
  };
}

describe('the database failing under the signing page', () => {
  it('on every read: the page asks to try again, never calls the link invalid, and the brand read beside the link leaves no failure unobserved', async () => {
    const { token } = await sentEnvelope();
    const unobserved: unknown[] = [];
    const note = (reason: unknown) => unobserved.push(reason);
    process.on('unhandledRejection', note);
    const reads = vi.spyOn(stack.services.database.db, 'select').mockImplementation(() => {
      throw new Error('connection lost');
    });
    try {
      const failed = await get(token);
      // Not "this link is not valid": the signer is asked to try again.
      expect(failed.status).toBe(503);
      expect(failed.text).toMatch(/try again/i);
      expect(failed.text).not.toContain('connection lost');
      // Both reads were asked for, and both failed.
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(2);
      // A rejection nobody handles is reported once the microtasks of its turn have run.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      reads.mockRestore();
      process.off('unhandledRejection', note);
    }
    expect(unobserved).toEqual([]);
    expect((await get(token)).status).toBe(200);
  });

  it('on the first view: the page asks to try again, nothing is recorded, and the next view records it once', async () => {
    const { recipientId, token } = await sentEnvelope();
    const before = await traces(recipientId);
    const spy = failNextWrite();
    const failed = await get(token);
    spy.mockRestore();
    expect(failed.status).toBe(503);
    expect(failed.text).toMatch(/try again/i);
    expect(await traces(recipientId)).toEqual(before);
    // Logged by its route, with the cause, and never with the link.
    expect(logged).toHaveBeenCalledWith(
      `a dependency failed on GET /sign/:token (request ${failed.requestId}); the signer may retry`,
      expect.stringContaining('could not write to disk'),
    );
    expect(JSON.stringify(logged.mock.calls)).not.toContain(token.split('.')[1]);

    expect((await get(token)).status).toBe(200);
    const after = await traces(recipientId);
    expect(after.status).toBe('viewed');
    expect(after.audit.filter((kind) => kind === 'recipient.viewed')).toHaveLength(1);
  });

  it('on the signature: 503, still unsigned with nothing recorded, and the same form then signs once', async () => {
    const { recipientId, token } = await sentEnvelope();
    const shown = await get(token);
    const before = await traces(recipientId);
    const spy = failNextWrite();
    const failed = await postForm(`/sign/${token}`, signForm(shown.text), shown.text);
    spy.mockRestore();
    expect(failed.status).toBe(503);
    expect(await traces(recipientId)).toEqual(before);

    expect((await postForm(`/sign/${token}`, signForm(shown.text), shown.text)).status).toBe(303);
    const after = await traces(recipientId);
    expect(after.status).toBe('signed');
    expect(after.audit.filter((kind) => kind === 'recipient.signed')).toHaveLength(1);
    expect(after.events).toBe(before.events + 1);
  });

  it('on the decline: 503, nothing recorded, and the decline then goes through once', async () => {
    const { recipientId, token } = await sentEnvelope();
    const shown = await get(token);
    const before = await traces(recipientId);
    const spy = failNextWrite();
    const failed = await postForm(`/sign/${token}/decline`, { reason: 'Wrong name' }, shown.text);
    spy.mockRestore();
    expect(failed.status).toBe(503);
    expect(await traces(recipientId)).toEqual(before);

    expect((await postForm(`/sign/${token}/decline`, { reason: 'Wrong name' }, shown.text)).status).toBe(303);
    expect((await traces(recipientId)).status).toBe('declined');
  });
});
