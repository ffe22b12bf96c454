/**
 * A copy-only recipient on an envelope's page: no request to sign goes to them, so the page says
 * they get a copy when it is finished; once the finished PDF is made and e-mailed to everyone, it
 * says when, from the trail's row of it; an envelope that did not finish sends them nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../src/data/schema.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import type { SigningState } from '../../src/domain/signing/signing-state.js';
import { type AppClient, appClient, signIn } from '../support/app-client.js';
import { drained } from '../support/drained.js';
import { createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
let client: AppClient;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
  client = appClient(stack);
  expect((await signIn(stack, client, company.owner.ownerEmail)).status).toBe(303);
});
afterAll(() => stack.close());

async function signAs(token: string) {
  const state = (await bySigner(stack.services, testSigner, openSigningLink, { token })) as SigningState;
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  const submission = {
    consent: true,
    values: Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : state.recipient.name])),
  };
  return bySigner(stack.services, testSigner, signAsRecipient, { token, submission });
}

/** The copy-only recipient's row of the recipients' table. */
const counselRow = (page: string) => /<tr>\s*<th scope="row">Carl Counsel[\s\S]*?<\/tr>/.exec(page)?.[0] ?? '';
const cell = (row: string, label: string) => new RegExp(`<td data-label="${label}">([\\s\\S]*?)</td>`).exec(row)?.[1];

describe('a copy-only recipient', () => {
  it('gets a copy when finished, then shows when it was e-mailed', async () => {
    const envelope = await sendTestEnvelope(stack, company);
    await drained(stack);
    const before = counselRow((await client.get(`/app/envelopes/${envelope.envelopeId}`)).body);
    expect(cell(before, 'State')).toBe('Gets a copy when finished');
    expect(cell(before, 'E-mailed')).toBe('–');

    for (const link of envelope.links) await signAs(link.token);
    await drained(stack);
    const [ready] = await stack.services.database.db
      .select({ at: auditEvents.createdAt })
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelope.envelopeId), eq(auditEvents.kind, 'envelope.document_ready')));
    expect(ready).toBeDefined();
    const copy = stack.services.mailbox.list().find((mail) => mail.to.email === 'counsel@example.test' && mail.tags?.envelope_id === envelope.envelopeId);
    expect(copy?.tags?.kind).toBe('document_ready');

    const page = (await client.get(`/app/envelopes/${envelope.envelopeId}`)).body;
    const after = counselRow(page);
    expect(cell(after, 'State')).toBe('Copy e-mailed');
    expect(cell(after, 'E-mailed')).toContain(`<time datetime="${ready!.at.toISOString()}">`);
    expect(page).toContain('The finished PDF was made and sealed, and e-mailed to every recipient');
  });

  it('gets nothing from an envelope voided before it finished', async () => {
    const envelope = await sendTestEnvelope(stack, company);
    await drained(stack);
    await client.get(`/app/envelopes/${envelope.envelopeId}`);
    expect((await client.post(`/app/envelopes/${envelope.envelopeId}/void`, { reason: 'Not needed' })).status).toBe(303);
    const row = counselRow((await client.get(`/app/envelopes/${envelope.envelopeId}`)).body);
    expect(cell(row, 'State')).toBe('No copy: the envelope was not finished');
    expect(cell(row, 'E-mailed')).toBe('–');
  });
});
