/**
 * The limits on verification codes by text message (docs/signing.md, "Signers who prove who they
 * are"): per number, per envelope and per company, each per hour and per day, at each bound and
 * one past it, with another company beside; and codes asked for at once for one number.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationCodes } from '../../src/data/schema.js';
import { TEXT_MESSAGE_LIMITS } from '../../src/domain/signing/text-message-limits.js';
import { createTestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';
import { askForCode, DAY, freshNumber, HOUR, laterOf, linksTo, pastTexts, textsTo } from '../support/text-messages.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

describe('limits on texts per number', () => {
  it('gives fifteen envelopes to one number five texts an hour and fifteen a day, another company its own, then again once the first leave the window', async () => {
    const { hour, day } = TEXT_MESSAGE_LIMITS.number;
    expect([hour, day]).toEqual([5, 15]);
    const company = await createTestCompany(stack);
    const number = freshNumber();
    const envelopes = [];
    for (let i = 0; i < 16; i++) envelopes.push((await linksTo(stack, company, [number])).links[0]!);
    const start = stack.clock.now();

    // The fifth of the hour goes, the sixth waits until the first is an hour old.
    for (const link of envelopes.slice(0, 5)) expect((await askForCode(stack, link.token)).status).toBe(303);
    const sixth = await askForCode(stack, envelopes[5]!.token);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toContain('You can ask for a new code at');
    expect(laterOf(sixth)).toBe(new Date(start.getTime() + HOUR).toISOString());
    expect(textsTo(stack, number)).toHaveLength(5);

    // Another company's text to the same number is not counted against this one's.
    const other = await createTestCompany(stack);
    const theirs = (await linksTo(stack, other, [number])).links[0]!;
    expect((await askForCode(stack, theirs.token)).status).toBe(303);
    expect(textsTo(stack, number)).toHaveLength(6);

    // A millisecond before the hour is over: still waiting; at the hour, five more, and so on.
    stack.clock.set(new Date(start.getTime() + HOUR - 1));
    expect((await askForCode(stack, envelopes[5]!.token)).status).toBe(429);
    stack.clock.set(new Date(start.getTime() + HOUR));
    for (const link of envelopes.slice(5, 10)) expect((await askForCode(stack, link.token)).status).toBe(303);
    expect((await askForCode(stack, envelopes[10]!.token)).status).toBe(429);
    stack.clock.set(new Date(start.getTime() + 2 * HOUR));
    for (const link of envelopes.slice(10, 15)) expect((await askForCode(stack, link.token)).status).toBe(303);
    expect(textsTo(stack, number)).toHaveLength(16);

    // Fifteen in the day: the sixteenth waits for the day's first to be a day old, not an hour.
    stack.clock.set(new Date(start.getTime() + 3 * HOUR));
    const sixteenth = await askForCode(stack, envelopes[15]!.token);
    expect(sixteenth.status).toBe(429);
    expect(laterOf(sixteenth)).toBe(new Date(start.getTime() + DAY).toISOString());
    stack.clock.set(new Date(start.getTime() + DAY - 1));
    expect((await askForCode(stack, envelopes[15]!.token)).status).toBe(429);
    stack.clock.set(new Date(start.getTime() + DAY));
    expect((await askForCode(stack, envelopes[15]!.token)).status).toBe(303);
    const mine = await stack.services.database.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.companyId, company.id), eq(verificationCodes.destination, number)));
    expect(mine).toHaveLength(16);
  });

  it('counts codes asked for at once for one number by different envelopes exactly: five texts of ten', async () => {
    const company = await createTestCompany(stack);
    const number = freshNumber();
    const links = [];
    for (let i = 0; i < 10; i++) links.push((await linksTo(stack, company, [number])).links[0]!);
    const answers = await Promise.all(links.map((link) => askForCode(stack, link.token)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 303, 303, 303, 303, 429, 429, 429, 429, 429]);
    expect(textsTo(stack, number)).toHaveLength(5);
    const rows = await stack.services.database.db.select().from(verificationCodes).where(eq(verificationCodes.companyId, company.id));
    expect(rows).toHaveLength(5);
  });

  it('says when to try again in the signer’s language', async () => {
    const company = await createTestCompany(stack);
    const number = freshNumber();
    for (let i = 0; i < 5; i++) expect((await askForCode(stack, (await linksTo(stack, company, [number])).links[0]!.token)).status).toBe(303);
    const late = await askForCode(stack, (await linksTo(stack, company, [number])).links[0]!.token, 'fr');
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
    const { links } = await linksTo(stack, company, numbers);
    const start = stack.clock.now();
    for (let round = 0; round < 3; round++) {
      stack.clock.set(new Date(start.getTime() + round * HOUR));
      for (const link of links.slice(0, 10)) expect((await askForCode(stack, link.token)).status).toBe(303);
      const eleventh = await askForCode(stack, links[10]!.token);
      expect(eleventh.status).toBe(429);
      expect(laterOf(eleventh)).toBe(new Date(start.getTime() + (round === 2 ? DAY : (round + 1) * HOUR)).toISOString());
    }
    expect(numbers.flatMap((number) => textsTo(stack, number))).toHaveLength(30);
    // A new hour, every number and link far from its own limits: the envelope's day is full.
    stack.clock.set(new Date(start.getTime() + 3 * HOUR));
    expect((await askForCode(stack, links[10]!.token)).status).toBe(429);
    expect(textsTo(stack, numbers[10]!)).toHaveLength(0);
    // Another envelope of the company to the same number is not held back.
    expect((await askForCode(stack, (await linksTo(stack, company, [numbers[10]!])).links[0]!.token)).status).toBe(303);
    expect(textsTo(stack, numbers[10]!)).toHaveLength(1);
  });
});

describe('limits on texts per company', () => {
  it('texts a hundred an hour: the hundredth goes, the hundred and first waits, another company is not held back', async () => {
    expect(TEXT_MESSAGE_LIMITS.company.hour).toBe(100);
    const company = await createTestCompany(stack);
    const filler = await linksTo(stack, company, [freshNumber()]);
    const now = stack.clock.now();
    await pastTexts(
      stack,
      Array.from({ length: 99 }, () => ({
        companyId: company.id,
        envelopeId: filler.envelopeId,
        recipientId: filler.links[0]!.id,
        number: freshNumber(),
        at: new Date(now.getTime() - 30 * 60_000),
      })),
    );
    const [hundredth, hundredFirst] = [freshNumber(), freshNumber()];
    expect((await askForCode(stack, (await linksTo(stack, company, [hundredth])).links[0]!.token)).status).toBe(303);
    const late = await askForCode(stack, (await linksTo(stack, company, [hundredFirst])).links[0]!.token);
    expect(late.status).toBe(429);
    expect(laterOf(late)).toBe(new Date(now.getTime() + 30 * 60_000).toISOString());
    expect(textsTo(stack, hundredth)).toHaveLength(1);
    expect(textsTo(stack, hundredFirst)).toHaveLength(0);

    const other = await createTestCompany(stack);
    expect((await askForCode(stack, (await linksTo(stack, other, [hundredFirst])).links[0]!.token)).status).toBe(303);
    expect(textsTo(stack, hundredFirst)).toHaveLength(1);
  });

  it('texts five hundred a day: the five hundredth goes, the next waits until the day’s first are a day old', async () => {
    expect(TEXT_MESSAGE_LIMITS.company.day).toBe(500);
    const company = await createTestCompany(stack);
    const filler = await linksTo(stack, company, [freshNumber()]);
    const now = stack.clock.now();
    const twoHoursAgo = new Date(now.getTime() - 2 * HOUR);
    await pastTexts(
      stack,
      Array.from({ length: 499 }, () => ({
        companyId: company.id,
        envelopeId: filler.envelopeId,
        recipientId: filler.links[0]!.id,
        number: freshNumber(),
        at: twoHoursAgo,
      })),
    );
    expect((await askForCode(stack, (await linksTo(stack, company, [freshNumber()])).links[0]!.token)).status).toBe(303);
    const waiting = (await linksTo(stack, company, [freshNumber()])).links[0]!;
    const late = await askForCode(stack, waiting.token);
    expect(late.status).toBe(429);
    expect(laterOf(late)).toBe(new Date(twoHoursAgo.getTime() + DAY).toISOString());
    stack.clock.set(new Date(twoHoursAgo.getTime() + DAY - 1));
    expect((await askForCode(stack, waiting.token)).status).toBe(429);
    stack.clock.set(new Date(twoHoursAgo.getTime() + DAY));
    expect((await askForCode(stack, waiting.token)).status).toBe(303);
  });
});
