/**
 * Envelopes whose signers get their code by text message, and the signing page's "Send me the
 * code" as its form posts it: what the tests of the limits on texts and of the numbers share.
 */
import { verificationCodes } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { asOperator, createTestTemplate, type TestCompany } from './factories.js';
import { call } from './http.js';
import { BASE_URL, type TestStack } from './stack.js';
import { unique } from './unique.js';

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

/** A template of `count` signers in parallel, each proving who they are by a code texted to them. */
const textedRoles = (count: number): Partial<TemplateDefinition> => {
  const names = Array.from({ length: count }, (_, index) => `Signer ${index + 1}`);
  return {
    signing_order: 'parallel',
    roles: names.map((name) => ({ name, type: 'signer' as const, order: 1, locked: false, verification: 'sms_code' as const })),
    fields: names.map((name, index) => ({
      role: name,
      type: 'signature' as const,
      page: 1,
      x: 72,
      y: 72 + index * 50,
      width: 150,
      height: 40,
      required: true,
    })),
  };
};

/** A mobile number of the UK of its own (07400 …), in E.164. */
let serial = 100_000;
export const freshNumber = () => `+447400${++serial}`;

/** A send to signers with these numbers, one each, in their order; the answer as it came. */
export async function sendTo(stack: TestStack, company: TestCompany, numbers: string[], extra: Record<string, unknown> = {}) {
  const template = await createTestTemplate(stack, company.id, textedRoles(numbers.length));
  // A token of now: tests move the clock by hours.
  const { access_token } = await exchangeApiKey(asOperator(stack), { apiKey: company.owner.key });
  return call(stack, 'POST', '/v1/envelopes/from-template', {
    token: access_token,
    body: {
      template_id: template.id,
      recipients: numbers.map((number, index) => ({
        role: `Signer ${index + 1}`,
        name: `Signer ${index + 1}`,
        email: `s${index}-${unique()}@example.test`,
        contact_number: number,
      })),
      ...extra,
    },
  });
}

/** The signing links of an envelope sent to these numbers, in their order. */
export async function linksTo(stack: TestStack, company: TestCompany, numbers: string[], extra: Record<string, unknown> = {}) {
  const answer = await sendTo(stack, company, numbers, extra);
  if (answer.status !== 201) throw new Error(`The send answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const entries = answer.body.signing_urls as { recipient_id: string; name: string; signing_url: string }[];
  const links = numbers.map((_, index) => {
    const entry = entries.find((candidate) => candidate.name === `Signer ${index + 1}`)!;
    return { id: entry.recipient_id, token: entry.signing_url.split('/sign/')[1]! };
  });
  return { envelopeId: answer.body.envelope_id as string, links };
}

/** "Send me the code", as the page's own form posts it. */
export async function askForCode(stack: TestStack, token: string, lang = 'en') {
  const body = new URLSearchParams({ form_token: await formToken(stack.services.config.tokenSecret, token), lang });
  return call(stack, 'POST', `/sign/${token}/code`, {
    rawBody: body.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin' },
  });
}

export const textsTo = (stack: TestStack, number: string) => stack.services.smsBox.list().filter((sms) => sms.to === number);

/** The time a "try later" page names (its `<time datetime>`). */
export const laterOf = (answer: { body: string }) => /<time datetime="([^"]+)">/.exec(answer.body)?.[1];

/** Codes texted in the past, written straight to the table: what many sends would have left. */
export async function pastTexts(stack: TestStack, rows: { companyId: string; envelopeId: string; recipientId: string; number: string; at: Date }[]) {
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
