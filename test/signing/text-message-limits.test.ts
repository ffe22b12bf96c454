/**
 * Verification codes by text message cannot be pumped (docs/signing.md, "Signers who prove who
 * they are"): the limits per number, per envelope and per company, each per hour and per day, at
 * each bound and one past it, with another company beside; codes asked for at once for one number;
 * numbers checked against the numbering plans at the send and before each text; the countries a
 * company allows; and the message itself, the company's name and the code only.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandSettings, recipients, verificationCodes } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { TEXT_MESSAGE_LIMITS } from '../../src/domain/signing/text-message-limits.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { formToken } from '../../src/http/form-token.js';
import { segmentCount } from '../../src/lib/text-message-segments.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A template of `count` signers in parallel, each proving who they are by a code texted to them. */
const textedRoles = (count = 1): Partial<TemplateDefinition> => {
  const names = Array.from({ length: count }, (_, index) => `Signer ${index + 1}`);
  return {
    signing_order: 'parallel',
    roles: names.map((name) => ({ name, type: 'signer' as const, order: 1, locked: false, verification: 'sms_code' as const })),
    fields: names.map((name, index) => ({ role: name, type: 'signature' as const, page: 1, x: 72, y: 72 + index * 50, width: 150, height: 40, required: true })),
  };
};

/** A mobile number of the UK of its own (07400 …), in E.164. */
let serial = 100_000;
const freshNumber = () => `+447400${++serial}`;

async function sendTo(company: TestCompany, numbers: string[], extra: Record<string, unknown> = {}) {
  const template = await createTestTemplate(stack, company.id, textedRoles(numbers.length));
  // A token of now: tests move the clock by hours.
  const { access_token } = await exchangeApiKey(stack.services, company.owner.key);
  return call(stack, 'POST', '/v1/envelopes/from-template', {
    token: access_token,
    body: {
      template_id: template.id,
      recipients: numbers.map((number, index) => ({ role: `Signer ${index + 1}`, name: `Signer ${index + 1}`, email: `s${index}-${unique()}@example.test`, contact_number: number })),
      ...extra,
    },
  });
}

/** The signing links of an envelope sent to these numbers, in their order. */
async function linksTo(company: TestCompany, numbers: string[], extra: Record<string, unknown> = {}) {
  const answer = await sendTo(company, numbers, extra);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const entries = answer.body.signing_urls as { recipient_id: string; name: string; signing_url: string }[];
  const links = numbers.map((_, index) => {
    const entry = entries.find((candidate) => candidate.name === `Signer ${index + 1}`)!;
    return { id: entry.recipient_id, token: entry.signing_url.split('/sign/')[1]! };
  });
  return { envelopeId: answer.body.envelope_id as string, links };
}

/** "Send me the code", as the page's own form posts it. */
async function askForCode(token: string, lang = 'en') {
  const body = new URLSearchParams({ form_token: await formToken(stack.services.config.tokenSecret, token), lang });
  return call(stack, 'POST', `/sign/${token}/code`, {
    rawBody: body.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin' },
  });
}

const textsTo = (number: string) => stack.services.smsBox.list().filter((sms) => sms.to === number);

/** The time a "try later" page names (its `<time datetime>`). */
const laterOf = (answer: { body: string }) => /<time datetime="([^"]+)">/.exec(answer.body)?.[1];

/** Codes texted in the past, written straight to the table: what many sends would have left. */
async function pastTexts(rows: { companyId: string; envelopeId: string; recipientId: string; number: string; at: Date }[]) {
  if (rows.length === 0) return;
  await stack.services.database.db.insert(verificationCodes).values(
    rows.map((row) => ({
      companyId: row.companyId,
      envelopeId: row.envelopeId,
      recipientId: row.recipientId,
      channel: 'sms' as const,
      codeHash: 'x',
      sentAt: row.at,
      expiresAt: new Date(row.at.getTime() + 600_000),
      destination: row.number,
    })),
  );
}

describe('limits on texts per number', () => {
  it('gives fifteen envelopes to one number five texts an hour and fifteen a day, another company its own, then again once the first leave the window', async () => {
    const { hour, day } = TEXT_MESSAGE_LIMITS.number;
    expect([hour, day]).toEqual([5, 15]);
    const company = await createTestCompany(stack);
    const number = freshNumber();
    const envelopes = [];
    for (let i = 0; i < 16; i++) envelopes.push((await linksTo(company, [number])).links[0]!);
    const start = stack.clock.now();

    // The fifth of the hour goes, the sixth waits until the first is an hour old.
    for (const link of envelopes.slice(0, 5)) expect((await askForCode(link.token)).status).toBe(303);
    const sixth = await askForCode(envelopes[5]!.token);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toContain('You can ask for a new code at');
    expect(laterOf(sixth)).toBe(new Date(start.getTime() + HOUR).toISOString());
    expect(textsTo(number)).toHaveLength(5);

    // Another company's text to the same number is not counted against this one's.
    const other = await createTestCompany(stack);
    const theirs = (await linksTo(other, [number])).links[0]!;
    expect((await askForCode(theirs.token)).status).toBe(303);
    expect(textsTo(number)).toHaveLength(6);

    // A millisecond before the hour is over: still waiting; at the hour, five more, and so on.
    stack.clock.set(new Date(start.getTime() + HOUR - 1));
    expect((await askForCode(envelopes[5]!.token)).status).toBe(429);
    stack.clock.set(new Date(start.getTime() + HOUR));
    for (const link of envelopes.slice(5, 10)) expect((await askForCode(link.token)).status).toBe(303);
    expect((await askForCode(envelopes[10]!.token)).status).toBe(429);
    stack.clock.set(new Date(start.getTime() + 2 * HOUR));
    for (const link of envelopes.slice(10, 15)) expect((await askForCode(link.token)).status).toBe(303);
    expect(textsTo(number)).toHaveLength(16);

    // Fifteen in the day: the sixteenth waits for the day's first to be a day old, not an hour.
    stack.clock.set(new Date(start.getTime() + 3 * HOUR));
    const sixteenth = await askForCode(envelopes[15]!.token);
    expect(sixteenth.status).toBe(429);
    expect(laterOf(sixteenth)).toBe(new Date(start.getTime() + DAY).toISOString());
    stack.clock.set(new Date(start.getTime() + DAY - 1));
    expect((await askForCode(envelopes[15]!.token)).status).toBe(429);
    stack.clock.set(new Date(start.getTime() + DAY));
    expect((await askForCode(envelopes[15]!.token)).status).toBe(303);
    const mine = await stack.services.database.db.select().from(verificationCodes).where(and(eq(verificationCodes.companyId, company.id), eq(verificationCodes.destination, number)));
    expect(mine).toHaveLength(16);
  });

  it('counts codes asked for at once for one number by different envelopes exactly: five texts of ten', async () => {
    const company = await createTestCompany(stack);
    const number = freshNumber();
    const links = [];
    for (let i = 0; i < 10; i++) links.push((await linksTo(company, [number])).links[0]!);
    const answers = await Promise.all(links.map((link) => askForCode(link.token)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 303, 303, 303, 303, 429, 429, 429, 429, 429]);
    expect(textsTo(number)).toHaveLength(5);
    const rows = await stack.services.database.db.select().from(verificationCodes).where(eq(verificationCodes.companyId, company.id));
    expect(rows).toHaveLength(5);
  });

  it('says when to try again in the signer’s language', async () => {
    const company = await createTestCompany(stack);
    const number = freshNumber();
    for (let i = 0; i < 5; i++) expect((await askForCode((await linksTo(company, [number])).links[0]!.token)).status).toBe(303);
    const late = await askForCode((await linksTo(company, [number])).links[0]!.token, 'fr');
    expect(late.status).toBe(429);
    expect(late.body).toContain('lang="fr"');
    expect(late.body).toContain('Vous pourrez demander un nouveau code');
  });
});

describe('limits on texts per envelope', () => {
  it('texts ten signers of one envelope an hour and thirty a day: the eleventh waits, then the thirty-first a day', async () => {
    const { hour, day } = TEXT_MESSAGE_LIMITS.envelope;
    expect([hour, day]).toEqual([10, 30]);
    const company = await createTestCompany(stack);
    const numbers = Array.from({ length: 11 }, freshNumber);
    const { links } = await linksTo(company, numbers);
    const start = stack.clock.now();
    for (let round = 0; round < 3; round++) {
      stack.clock.set(new Date(start.getTime() + round * HOUR));
      for (const link of links.slice(0, 10)) expect((await askForCode(link.token)).status).toBe(303);
      const eleventh = await askForCode(links[10]!.token);
      expect(eleventh.status).toBe(429);
      expect(laterOf(eleventh)).toBe(new Date(start.getTime() + (round === 2 ? DAY : (round + 1) * HOUR)).toISOString());
    }
    expect(numbers.flatMap(textsTo)).toHaveLength(30);
    // A new hour, every number and link far from its own limits: the envelope's day is full.
    stack.clock.set(new Date(start.getTime() + 3 * HOUR));
    expect((await askForCode(links[10]!.token)).status).toBe(429);
    expect(textsTo(numbers[10]!)).toHaveLength(0);
    // Another envelope of the company to the same number is not held back.
    expect((await askForCode((await linksTo(company, [numbers[10]!])).links[0]!.token)).status).toBe(303);
    expect(textsTo(numbers[10]!)).toHaveLength(1);
  });
});

describe('limits on texts per company', () => {
  it('texts a hundred an hour: the hundredth goes, the hundred and first waits, another company is not held back', async () => {
    expect(TEXT_MESSAGE_LIMITS.company.hour).toBe(100);
    const company = await createTestCompany(stack);
    const filler = await linksTo(company, [freshNumber()]);
    const now = stack.clock.now();
    await pastTexts(
      Array.from({ length: 99 }, () => ({ companyId: company.id, envelopeId: filler.envelopeId, recipientId: filler.links[0]!.id, number: freshNumber(), at: new Date(now.getTime() - 30 * 60_000) })),
    );
    const [hundredth, hundredFirst] = [freshNumber(), freshNumber()];
    expect((await askForCode((await linksTo(company, [hundredth])).links[0]!.token)).status).toBe(303);
    const late = await askForCode((await linksTo(company, [hundredFirst])).links[0]!.token);
    expect(late.status).toBe(429);
    expect(laterOf(late)).toBe(new Date(now.getTime() + 30 * 60_000).toISOString());
    expect(textsTo(hundredth)).toHaveLength(1);
    expect(textsTo(hundredFirst)).toHaveLength(0);

    const other = await createTestCompany(stack);
    expect((await askForCode((await linksTo(other, [hundredFirst])).links[0]!.token)).status).toBe(303);
    expect(textsTo(hundredFirst)).toHaveLength(1);
  });

  it('texts five hundred a day: the five hundredth goes, the next waits until the day’s first are a day old', async () => {
    expect(TEXT_MESSAGE_LIMITS.company.day).toBe(500);
    const company = await createTestCompany(stack);
    const filler = await linksTo(company, [freshNumber()]);
    const now = stack.clock.now();
    const twoHoursAgo = new Date(now.getTime() - 2 * HOUR);
    await pastTexts(
      Array.from({ length: 499 }, () => ({ companyId: company.id, envelopeId: filler.envelopeId, recipientId: filler.links[0]!.id, number: freshNumber(), at: twoHoursAgo })),
    );
    expect((await askForCode((await linksTo(company, [freshNumber()])).links[0]!.token)).status).toBe(303);
    const waiting = (await linksTo(company, [freshNumber()])).links[0]!;
    const late = await askForCode(waiting.token);
    expect(late.status).toBe(429);
    expect(laterOf(late)).toBe(new Date(twoHoursAgo.getTime() + DAY).toISOString());
    stack.clock.set(new Date(twoHoursAgo.getTime() + DAY - 1));
    expect((await askForCode(waiting.token)).status).toBe(429);
    stack.clock.set(new Date(twoHoursAgo.getTime() + DAY));
    expect((await askForCode(waiting.token)).status).toBe(303);
  });
});

describe('numbers checked against the numbering plans', () => {
  it('refuses at the send, naming the field, a number no plan has, a fixed line, a premium-rate one and a satellite phone', async () => {
    const company = await createTestCompany(stack);
    for (const number of ['+999999999999999', '+44 20 7946 0000', '+44 909 879 0000', '+881 6 1234 5678', '+44 7400 123456 ext 5', '0044 7400 123456']) {
      const answer = await sendTo(company, [number]);
      expect(answer.status, number).toBe(422);
      expect(errorCode(answer)).toBe('validation_failed');
      expect(answer.body.error.details.issues).toEqual([expect.objectContaining({ path: 'recipients[0].contact_number' })]);
    }
    // A mobile number, written as people write it, is kept in E.164.
    const { envelopeId } = await linksTo(company, ['+44 (0)7400 123-456']);
    const [row] = await stack.services.database.db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId));
    expect(row!.contactNumber).toBe('+447400123456');
  });

  it('checks a number again before texting it: one stored before the checks gets no text, and the page says to ask the sender', async () => {
    const company = await createTestCompany(stack);
    const { links } = await linksTo(company, [freshNumber()]);
    await stack.services.database.db.update(recipients).set({ contactNumber: '+999999999999999' }).where(eq(recipients.id, links[0]!.id));
    const answer = await askForCode(links[0]!.token);
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('A code cannot be sent by text message to this number.');
    expect(textsTo('+999999999999999')).toHaveLength(0);
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
    expect(refused.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual(['allowed_countries[1]', 'allowed_countries[2]', 'allowed_countries[3]']);
    expect((await read()).body.allowed_countries).toEqual(['GB', 'IE']);

    expect((await put(company.id, null)).body).toEqual({ company_id: company.id, allowed_countries: null });
    expect((await call(stack, 'PUT', `/admin/v1/companies/${crypto.randomUUID()}/text-messages`, { token: ADMIN_TOKEN, body: { allowed_countries: null } })).status).toBe(404);
  });

  it('refuse a send to a number of another country, and a code for one stored before the list; another company is not bound by it', async () => {
    const company = await createTestCompany(stack);
    const french = '+33612345678';
    const stored = await linksTo(company, [french]);
    expect((await put(company.id, ['GB'])).status).toBe(200);

    const refused = await sendTo(company, [french]);
    expect(refused.status).toBe(422);
    expect(errorCode(refused)).toBe('validation_failed');
    expect(refused.body.error.details.issues).toEqual([expect.objectContaining({ path: 'recipients[0].contact_number', message: expect.stringContaining('A number of FR') })]);
    expect((await sendTo(company, [freshNumber()])).status).toBe(201);

    const page = await askForCode(stored.links[0]!.token);
    expect(page.status).toBe(422);
    expect(page.body).toContain('A code cannot be sent by text message to this number.');
    expect(textsTo(french)).toHaveLength(0);

    const other = await createTestCompany(stack);
    expect((await askForCode((await linksTo(other, [french])).links[0]!.token)).status).toBe(303);
    expect(textsTo(french)).toHaveLength(1);
  });
});

describe('the message', () => {
  it('holds the code and the company’s name only, never the title, in one segment', async () => {
    const company = await createTestCompany(stack);
    const longName = `Ünïcode & Sons Holding ${'Ł'.repeat(70)}`;
    await stack.services.database.db.update(brandSettings).set({ displayName: longName }).where(eq(brandSettings.companyId, company.id));
    const number = freshNumber();
    const title = 'Urgent: verify at https://evil.example/login now';
    const { links } = await linksTo(company, [number], { title });
    expect((await askForCode(links[0]!.token)).status).toBe(303);
    const [text] = textsTo(number);
    expect(text!.body).not.toContain('evil');
    expect(text!.body).not.toContain('Urgent');
    expect(text!.body).toMatch(/^\d{6} is your code from Ünïcode & Sons Holding Ł+…\. Do not share it\.$/);
    const segment = segmentCount(text!.body);
    expect(segment).toEqual({ encoding: 'UCS-2', units: 70, limit: 70 });
  });
});
