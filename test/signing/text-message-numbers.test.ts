/**
 * The numbers a verification code is texted to, and the text (docs/signing.md, "Signers who prove
 * who they are"; docs/admin.md, "Text messages"): numbers checked against the numbering plans at
 * the send and before each text, the countries a company allows, and a message of the company's
 * name and the code only, in one segment.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandSettings, recipients, verificationCodes } from '../../src/data/schema.js';
import { segmentCount } from '../../src/lib/text-message-segments.js';
import { createTestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { askForCode, freshNumber, linksTo, sendTo, textsTo } from '../support/text-messages.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

describe('numbers checked against the numbering plans', () => {
  it('refuses at the send, naming the field, a number no plan has, a fixed line, a premium-rate one and a satellite phone', async () => {
    const company = await createTestCompany(stack);
    for (const number of ['+999999999999999', '+44 20 7946 0000', '+44 909 879 0000', '+881 6 1234 5678', '+44 7400 123456 ext 5', '0044 7400 123456']) {
      const answer = await sendTo(stack, company, [number]);
      expect(answer.status, number).toBe(422);
      expect(errorCode(answer)).toBe('validation_failed');
      expect(answer.body.error.details.issues).toEqual([expect.objectContaining({ path: 'recipients[0].contact_number' })]);
    }
    // A mobile number, written as people write it, is kept in E.164.
    const { envelopeId } = await linksTo(stack, company, ['+44 (0)7400 123-456']);
    const [row] = await stack.services.database.db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId));
    expect(row!.contactNumber).toBe('+447400123456');
  });

  it('checks a number again before texting it: one stored before the checks gets no text, and the page says to ask the sender', async () => {
    const company = await createTestCompany(stack);
    const { links } = await linksTo(stack, company, [freshNumber()]);
    await stack.services.database.db.update(recipients).set({ contactNumber: '+999999999999999' }).where(eq(recipients.id, links[0]!.id));
    const answer = await askForCode(stack, links[0]!.token);
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('A code cannot be sent by text message to this number.');
    expect(textsTo(stack, '+999999999999999')).toHaveLength(0);
    expect(await stack.services.database.db.select().from(verificationCodes).where(eq(verificationCodes.recipientId, links[0]!.id))).toEqual([]);
  });
});

describe('the countries a company allows', () => {
  const put = (companyId: string, allowed: unknown) =>
    call(stack, 'PUT', `/admin/v1/companies/${companyId}/text-messages`, { token: ADMIN_TOKEN, body: { allowed_countries: allowed } });

  it('are set, read back and reset through the admin API; an unknown or repeated country is refused, naming it', async () => {
    const company = await createTestCompany(stack);
    const read = () => call(stack, 'GET', `/admin/v1/companies/${company.id}/text-messages`, { token: ADMIN_TOKEN });
    expect((await read()).body).toEqual({ company_id: company.id, allowed_countries: null });
    const set = await put(company.id, ['gb', 'IE']);
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ company_id: company.id, allowed_countries: ['GB', 'IE'] });
    expect((await read()).body).toEqual(set.body);

    const refused = await put(company.id, ['GB', 'XX', 'gb', 'GBR']);
    expect(refused.status).toBe(422);
    expect(errorCode(refused)).toBe('validation_failed');
    expect(refused.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
      'allowed_countries[1]',
      'allowed_countries[2]',
      'allowed_countries[3]',
    ]);
    expect((await read()).body.allowed_countries).toEqual(['GB', 'IE']);

    expect((await put(company.id, null)).body).toEqual({ company_id: company.id, allowed_countries: null });
    expect(
      (await call(stack, 'PUT', `/admin/v1/companies/${crypto.randomUUID()}/text-messages`, { token: ADMIN_TOKEN, body: { allowed_countries: null } })).status,
    ).toBe(404);
  });

  it('refuse a send to a number of another country, and a code for one stored before the list; another company is not bound by it', async () => {
    const company = await createTestCompany(stack);
    const french = '+33612345678';
    const stored = await linksTo(stack, company, [french]);
    expect((await put(company.id, ['GB'])).status).toBe(200);

    const refused = await sendTo(stack, company, [french]);
    expect(refused.status).toBe(422);
    expect(errorCode(refused)).toBe('validation_failed');
    expect(refused.body.error.details.issues).toEqual([
      expect.objectContaining({ path: 'recipients[0].contact_number', message: expect.stringContaining('A number of FR') }),
    ]);
    expect((await sendTo(stack, company, [freshNumber()])).status).toBe(201);

    const page = await askForCode(stack, stored.links[0]!.token);
    expect(page.status).toBe(422);
    expect(page.body).toContain('A code cannot be sent by text message to this number.');
    expect(textsTo(stack, french)).toHaveLength(0);

    const other = await createTestCompany(stack);
    expect((await askForCode(stack, (await linksTo(stack, other, [french])).links[0]!.token)).status).toBe(303);
    expect(textsTo(stack, french)).toHaveLength(1);
  });
});

describe('the message', () => {
  it('holds the code and the company’s name only, never the title, in one segment', async () => {
    const company = await createTestCompany(stack);
    const longName = `Ünïcode & Sons Holding ${'Ł'.repeat(70)}`;
    await stack.services.database.db.update(brandSettings).set({ displayName: longName }).where(eq(brandSettings.companyId, company.id));
    const number = freshNumber();
    const title = 'Urgent: verify at https://evil.example/login now';
    const { links } = await linksTo(stack, company, [number], { title });
    expect((await askForCode(stack, links[0]!.token)).status).toBe(303);
    const [text] = textsTo(stack, number);
    expect(text!.body).not.toContain('evil');
    expect(text!.body).not.toContain('Urgent');
    expect(text!.body).toMatch(/^\d{6} is your code from Ünïcode & Sons Holding Ł+…\. Do not share it\.$/);
    const segment = segmentCount(text!.body);
    expect(segment).toEqual({ encoding: 'UCS-2', units: 70, limit: 70 });
  });
});
