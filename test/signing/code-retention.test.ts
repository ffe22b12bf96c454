/**
 * Verification codes are kept for CODE_RETENTION_MS after they were sent, then removed by the
 * housekeeping purge; the audit trail keeps saying that a code was sent.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, verificationCodes } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { CODE_RETENTION_MS, purgeSpentCodes } from '../../src/domain/signing/code-retention.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let templateId: string;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 10 });
  const roles = [
    { name: 'Client', type: 'signer', order: 1, locked: false, verification: 'email_code' },
    { name: 'Witness', type: 'signer', order: 1, locked: false },
  ] as const;
  templateId = (await createTestTemplate(stack, company.id, { signing_order: 'parallel', roles: [...roles] })).id;
});
afterAll(() => stack.close());

/** An envelope for one signer who must verify by e-mail code, and the code sent to them. */
async function sentCode() {
  const { access_token } = await exchangeApiKey({ services: stack.services, now: stack.clock.now() }, { apiKey: company.owner.key });
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: access_token,
    body: {
      template_id: templateId,
      recipients: [
        { role: 'Client', name: 'Dana Client', email: `dana-${unique()}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${unique()}@example.test` },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const entry = (answer.body.signing_urls as { recipient_id: string; name: string; signing_url: string }[]).find((link) => link.name === 'Dana Client');
  const token = entry!.signing_url.split('/sign/')[1]!;
  const body = new URLSearchParams({ form_token: await formToken(stack.services.config.tokenSecret, token), lang: 'en' });
  const asked = await call(stack, 'POST', `/sign/${token}/code`, {
    rawBody: body.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin' },
  });
  expect(asked.status).toBe(303);
  return { envelopeId: answer.body.envelope_id as string, recipientId: entry!.recipient_id };
}

describe('verification codes', () => {
  it('are removed two days after they were sent, and not a millisecond before', async () => {
    const kept = await sentCode();
    const removed = await sentCode();
    // Times near the real clock's, whatever this file's clock says: the purge is every company's, and
    // suites beside this one keep codes of their own, which must stay out of its reach.
    const now = new Date(Date.now() + CODE_RETENTION_MS - 12 * 3600_000);
    const { db } = stack.services.database;
    await db
      .update(verificationCodes)
      .set({ sentAt: new Date(now.getTime() - CODE_RETENTION_MS) })
      .where(eq(verificationCodes.recipientId, kept.recipientId));
    await db
      .update(verificationCodes)
      .set({ sentAt: new Date(now.getTime() - CODE_RETENTION_MS - 1) })
      .where(eq(verificationCodes.recipientId, removed.recipientId));

    await purgeSpentCodes(db, now);
    const left = async (recipientId: string) => (await db.select().from(verificationCodes).where(eq(verificationCodes.recipientId, recipientId))).length;
    expect(await left(kept.recipientId)).toBe(1);
    expect(await left(removed.recipientId)).toBe(0);
    // The trail still says the code was sent.
    const [sent] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, removed.envelopeId), eq(auditEvents.kind, 'recipient.code_sent')));
    expect(sent?.data.recipient_id).toBe(removed.recipientId);
  });
});
