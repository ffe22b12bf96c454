/**
 * Signers who prove who they are: a template role's `verification` (none, email_code, sms_code),
 * the send's contact numbers, and the verification step of the signing page through the app: the
 * code by e-mail and by text message, wrong and expired codes, the re-send limits, a second
 * browser, another recipient's code, the locked document, `envelope.viewed` after verification,
 * and the trail on the certificate of completion.
 *
 * One file although long: the role's setting, the send and the step share the templates and stack
 * they build.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, envelopes, recipients, verificationCodes, webhookEvents } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { certificateTrail } from '../../src/domain/signing/certificate-trail.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { signingDocument } from '../../src/domain/signing/signing-document.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { TwilioSms } from '../../src/adapters/production/twilio-sms.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { devSmsRoutes } from '../../src/dev-pages/sms-page.js';
import { SeedFile } from '../../src/seed/seed-file.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { createTestCompany, createTestTemplate, ndaDefinition, type TestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { installed } from '../support/outside-tools.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { storedBytes } from '../support/stored-documents.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 1000 });
});
afterAll(() => stack.close());

const MINUTE = 60_000;

/** Client proves by e-mail, Witness by text message; Counsel (a copy) proves nothing. */
const verifiedRoles = (): Partial<TemplateDefinition> => ({
  signing_order: 'parallel',
  roles: [
    { name: 'Client', type: 'signer', order: 1, locked: false, verification: 'email_code' },
    { name: 'Witness', type: 'signer', order: 1, locked: false, verification: 'sms_code' },
    { name: 'Counsel', type: 'cc', order: 3, locked: true, recipient: { name: 'Carl Counsel', email: 'counsel@example.test' } },
  ],
});

/** A mobile number of its own for each envelope, ending in 456: the limits per number count a company's texts to one. */
let numbers = 100;
const nextNumber = () => `+44 (7400) ${++numbers}-456`;

async function sendVerified(witnessNumber: string | undefined = nextNumber()) {
  const template = await createTestTemplate(stack, company.id, verifiedRoles());
  const tag = unique();
  // A token of now: tests move the clock past an hour.
  const { access_token } = await exchangeApiKey({ services: stack.services, now: stack.clock.now() }, { apiKey: company.owner.key });
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: access_token,
    body: {
      template_id: template.id,
      recipients: [
        { role: 'Client', name: 'Dana Client', email: `dana-${tag}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${tag}@example.test`, ...(witnessNumber ? { contact_number: witnessNumber } : {}) },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const entries = answer.body.signing_urls as { recipient_id: string; name: string; signing_url: string | null }[];
  const linkOf = (name: string) => {
    const entry = entries.find((candidate) => candidate.name === name)!;
    return { id: entry.recipient_id, token: entry.signing_url!.split('/sign/')[1]! };
  };
  const number = witnessNumber?.replace(/[^+\d]/g, '');
  return { envelopeId: answer.body.envelope_id as string, client: linkOf('Dana Client'), witness: linkOf('Walt Witness'), tag, number };
}

/** The page as a browser with these cookies (a `Cookie` header) sees it. */
const open = (path: string, cookie?: string) => call(stack, 'GET', path, { headers: cookie ? { cookie } : {} });

/** A post as the page's own form makes it. */
async function post(path: string, token: string, fields: Record<string, string> = {}, cookie?: string, headers: Record<string, string> = {}) {
  const body = new URLSearchParams({ ...fields, form_token: await formToken(stack.services.config.tokenSecret, token), lang: 'en' });
  return call(stack, 'POST', path, {
    rawBody: body.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: BASE_URL,
      'sec-fetch-site': 'same-origin',
      ...headers,
      ...(cookie ? { cookie } : {}),
    },
  });
}

const sendCode = (token: string) => post(`/sign/${token}/code`, token);
const enter = (token: string, code: string, cookie?: string, headers?: Record<string, string>) =>
  post(`/sign/${token}/verify`, token, { code }, cookie, headers);

/** The code of the newest code e-mail to a recipient. */
function emailedCode(recipientId: string): string {
  const mail = stack.services.mailbox.list().find((email) => email.tags?.kind === 'verification_code' && email.tags.recipient_id === recipientId);
  const code = / is (\d{6})\./.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error('no code e-mail');
  return code;
}

/** The code of the newest text message to a recipient. */
function textedCode(recipientId: string): string {
  const message = stack.services.smsBox.list().find((sms) => sms.tags?.recipient_id === recipientId);
  const code = /^(\d{6}) /.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error('no code text message');
  return code;
}

/** A code that is not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The proof cookie of a verified answer, as the browser sends it back. */
const cookieOf = (answer: { headers: Headers }) => answer.headers.get('set-cookie')?.split(';')[0] ?? '';

async function auditOf(envelopeId: string, recipientId: string) {
  const rows = await stack.services.database.db.select().from(auditEvents).where(eq(auditEvents.envelopeId, envelopeId)).orderBy(asc(auditEvents.createdAt));
  return rows.filter((row) => row.data.recipient_id === recipientId);
}

const viewedEvents = async (envelopeId: string) =>
  (
    await stack.services.database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.envelopeId, envelopeId), eq(webhookEvents.kind, 'envelope.viewed')))
  ).length;

/** Verifies a link in a fresh browser by e-mail: the cookie that browser then holds. */
async function verifyByEmail(link: { id: string; token: string }): Promise<string> {
  expect((await sendCode(link.token)).status).toBe(303);
  const verified = await enter(link.token, emailedCode(link.id));
  expect(verified.status).toBe(303);
  return cookieOf(verified);
}

describe('verification per template role', () => {
  it('is imported, stored and read back with each role, and refuses any other value with 422', async () => {
    const created = await createTestTemplate(stack, company.id, verifiedRoles());
    const read = await call(stack, 'GET', `/v1/templates/${created.id}`, { token: company.owner.token });
    expect(read.status).toBe(200);
    expect(read.body.roles).toEqual([
      expect.objectContaining({ name: 'Client', verification: 'email_code', contact_number_required: false }),
      expect.objectContaining({ name: 'Witness', verification: 'sms_code', contact_number_required: true }),
      expect.objectContaining({ name: 'Counsel', verification: 'none', contact_number_required: false }),
    ]);
    const listed = await call(stack, 'GET', '/v1/templates?per_page=100', { token: company.owner.token });
    expect(listed.body.data.find((template: { id: string }) => template.id === created.id).roles[1]).toMatchObject({ verification: 'sms_code' });

    const form = new FormData();
    const definition = ndaDefinition();
    definition.roles[0] = { ...definition.roles[0]!, verification: 'fingerprint' as never };
    form.set('template', JSON.stringify(definition));
    form.set('document', new Blob([(await generateDocument('x', 2, nodeFontSource())) as BlobPart], { type: 'application/pdf' }), 'nda.pdf');
    const refused = await call(stack, 'POST', `/admin/v1/companies/${company.id}/templates`, { token: ADMIN_TOKEN, rawBody: form });
    expect(refused.status).toBe(422);
    expect(errorCode(refused)).toBe('validation_failed');
    expect(JSON.stringify(refused.body.error.details)).toContain('template.roles[0].verification');
  });

  it('is part of the seed format, with the same values', () => {
    const seed = (verification: unknown) => ({
      companies: [
        {
          name: 'Seeded',
          api_signature_requests_per_period: 10,
          templates: [
            {
              ...ndaDefinition(),
              roles: [{ name: 'Client', type: 'signer', order: 1, verification }],
              fields: [],
              document: { generate: { title: 'T', pages: 1 } },
            },
          ],
        },
      ],
    });
    expect(SeedFile.safeParse(seed('sms_code')).success).toBe(true);
    expect(SeedFile.safeParse(seed('fingerprint')).success).toBe(false);
  });

  it('refuses a send to an sms_code role without a contact number, naming the recipient, and keeps a given one in E.164', async () => {
    const template = await createTestTemplate(stack, company.id, verifiedRoles());
    const recipientsWith = (number?: string) => [
      { role: 'Client', name: 'Dana Client', email: 'dana@example.test' },
      { role: 'Witness', name: 'Walt Witness', email: 'walt@example.test', ...(number !== undefined ? { contact_number: number } : {}) },
    ];
    for (const number of [undefined, '', '07700 900789', '+44 12', '+44 7700 900 789 123 45', '+44 7700x900789']) {
      const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
        token: company.owner.token,
        body: { template_id: template.id, recipients: recipientsWith(number) },
      });
      expect(answer.status, String(number)).toBe(422);
      expect(errorCode(answer)).toBe('validation_failed');
      expect(answer.body.error.details.issues).toEqual([expect.objectContaining({ path: 'recipients[1].contact_number' })]);
    }
    const { envelopeId } = await sendVerified('+1 (415) 555.0100');
    const rows = await stack.services.database.db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId)).orderBy(asc(recipients.position));
    expect(rows.map((row) => [row.role, row.verification, row.contactNumber])).toEqual([
      ['Client', 'email_code', null],
      ['Witness', 'sms_code', '+14155550100'],
      ['Counsel', 'none', null],
    ]);
  });

  it('refuses a send to an sms_code role when no text-message sender is configured', async () => {
    const template = await createTestTemplate(stack, company.id, verifiedRoles());
    const sms = stack.services.sms;
    delete stack.services.sms;
    try {
      const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
        token: company.owner.token,
        body: {
          template_id: template.id,
          recipients: [
            { role: 'Client', name: 'Dana Client', email: 'dana@example.test' },
            { role: 'Witness', name: 'Walt Witness', email: 'walt@example.test', contact_number: '+447400123456' },
          ],
        },
      });
      expect(answer.status).toBe(422);
      expect(answer.body.error.details.issues).toEqual([
        expect.objectContaining({ path: 'recipients[1].role', message: expect.stringContaining('TWILIO_ACCOUNT_SID') }),
      ]);
    } finally {
      stack.services.sms = sms;
    }
  });
});

describe('the verification step', () => {
  it('opens on the step with the title and sender only; the document is refused until the right code, then opens in that browser only', async () => {
    const { envelopeId, client, tag } = await sendVerified();
    const step = await open(`/sign/${client.token}`);
    expect(step.status).toBe(200);
    expect(step.body).toContain('Confirm it is you');
    expect(step.body).toContain(`We will send a six-digit code by e-mail to d***@example.test`);
    expect(step.body).not.toContain('document.pdf');
    expect(step.body).not.toContain(`dana-${tag}`);
    expect(step.body).not.toContain('field.');
    expect((await open(`/sign/${client.token}/document.pdf`)).status).toBe(403);
    expect((await open(`/sign/${client.token}/document.pdf?download=1`)).status).toBe(403);
    expect(await viewedEvents(envelopeId)).toBe(0);

    expect((await sendCode(client.token)).status).toBe(303);
    const mail = stack.services.mailbox.list().find((email) => email.tags?.kind === 'verification_code' && email.tags.recipient_id === client.id)!;
    expect(mail.to.email).toBe(`dana-${tag}@example.test`);
    const asking = await open(`/sign/${client.token}`);
    expect(asking.body).toContain('We sent a six-digit code by e-mail to d***@example.test');
    expect(asking.body).toContain('You have 5 tries.');
    expect(asking.body).not.toContain('document.pdf');

    // Entered in another site's frame (the browser says so), whose cookies the browser may withhold.
    const verified = await enter(client.token, emailedCode(client.id), undefined, { 'sec-fetch-dest': 'iframe' });
    expect(verified.status).toBe(303);
    const cookie = verified.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^esign_verified=[^;]+; Max-Age=86400; Path=/sign/${client.token.replace('.', '\\.')}; HttpOnly; Secure; SameSite=Lax$`));
    // In the frame the address carries the proof too.
    const location = verified.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/sign/${client.token.replace('.', '\\.')}\\?vp=`));

    const signing = await open(`/sign/${client.token}`, cookieOf(verified));
    expect(signing.body).toContain(`/sign/${client.token}/document.pdf`);
    expect(signing.body).not.toContain('Confirm it is you');
    // Without the cookie, the address alone carries the proof to the page and the PDF.
    const framed = await open(location);
    expect(framed.body).toContain(`/sign/${client.token}/document.pdf?vp=`);
    const pdfLink = /data-document="([^"]+)"/.exec(framed.body)![1]!.replaceAll('&amp;', '&');
    expect((await open(pdfLink)).status).toBe(200);
    // A proof altered by one character, or made for another link, proves nothing.
    const proof = new URL(location, BASE_URL).searchParams.get('vp')!;
    const altered = `${proof.slice(0, -1)}${proof.endsWith('A') ? 'B' : 'A'}`;
    expect((await open(`/sign/${client.token}/document.pdf?vp=${altered}`)).status).toBe(403);
    expect((await open(`/sign/${client.token}?vp=${altered}`)).body).toContain('Confirm it is you');
    expect((await open(`/sign/${client.token}/document.pdf`, cookieOf(verified))).status).toBe(200);
    // envelope.viewed: the verified signer saw the document.
    await vi.waitFor(async () => expect(await viewedEvents(envelopeId)).toBe(1));

    // A second browser with the same link has no proof, and must verify again.
    const second = await open(`/sign/${client.token}`);
    expect(second.body).toContain('Confirm it is you');
    expect((await open(`/sign/${client.token}/document.pdf`)).status).toBe(403);
    // Its posts change nothing: they lead back to the step.
    const signing2 = await post(`/sign/${client.token}`, client.token, { consent: 'yes' });
    const declining = await post(`/sign/${client.token}/decline`, client.token, { reason: 'Not me' });
    for (const answer of [signing2, declining]) expect([answer.status, answer.headers.get('location')]).toEqual([303, `/sign/${client.token}`]);
    const [stored] = await stack.services.database.db.select().from(recipients).where(eq(recipients.id, client.id));
    expect(stored!.status).toBe('viewed');

    const audit = (await auditOf(envelopeId, client.id)).filter((row) => row.kind !== 'recipient.emailed');
    // Written at one instant of the test's clock: their order among themselves is the database's.
    expect(audit.map((row) => row.kind).sort()).toEqual(['recipient.code_sent', 'recipient.verified', 'recipient.viewed']);
    expect(audit.find((row) => row.kind === 'recipient.code_sent')!.data).toMatchObject({ channel: 'email', to: 'd***@example.test' });
    // Only the code's keyed hash is kept.
    const [row] = await stack.services.database.db.select().from(verificationCodes).where(eq(verificationCodes.recipientId, client.id));
    expect(row!.codeHash).not.toContain(emailedCode(client.id));
    expect(row!.codeHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('counts five tries at a code, right or wrong; after five wrong ones it is dead, even for the right code, until a new one is sent', async () => {
    const { envelopeId, client } = await sendVerified();
    await sendCode(client.token);
    const code = emailedCode(client.id);
    for (const left of [4, 3, 2, 1]) {
      const wrong = await enter(client.token, otherThan(code));
      expect(wrong.status).toBe(422);
      expect(wrong.body).toContain(left === 1 ? 'That code is not right. You have 1 more try.' : `That code is not right. You have ${left} more tries.`);
    }
    const fifth = await enter(client.token, otherThan(code));
    expect(fifth.status).toBe(422);
    expect(fifth.body).toContain('entered wrongly too many times');
    const dead = await enter(client.token, code);
    expect(dead.status).toBe(422);
    expect(dead.body).toContain('entered wrongly too many times');
    expect(dead.headers.get('set-cookie')).toBeNull();
    // Not a code at all: said so, and no try counted.
    expect((await enter(client.token, '12345')).body).toContain('Enter the six digits of the code.');

    stack.clock.advance(MINUTE);
    expect((await sendCode(client.token)).status).toBe(303);
    expect(emailedCode(client.id)).toMatch(/^\d{6}$/);
    // The old code does not count once a new one is out.
    const fresh = emailedCode(client.id);
    if (fresh !== code) expect((await enter(client.token, code)).status).toBe(422);
    expect((await enter(client.token, fresh)).status).toBe(303);

    const failed = (await auditOf(envelopeId, client.id)).filter((row) => row.kind === 'recipient.code_failed');
    // The manual clock stands still, so the rows share one time: their order among themselves is the database's.
    const byTry = (row: [unknown, unknown]) => (row[1] === null ? Number.MAX_SAFE_INTEGER : Number(row[1]));
    const tries = failed.slice(0, 6).map((row) => [row.data.reason, row.data.attempt ?? null] as [unknown, unknown]);
    expect(tries.sort((x, y) => byTry(x) - byTry(y))).toEqual([
      ['wrong', 1],
      ['wrong', 2],
      ['wrong', 3],
      ['wrong', 4],
      ['wrong', 5],
      ['dead', null],
    ]);
  });

  it('gives tries made at once no more than five between them, and the right code after them is dead', async () => {
    const { envelopeId, client } = await sendVerified();
    await sendCode(client.token);
    const code = emailedCode(client.id);
    const answers = await Promise.all(Array.from({ length: 8 }, () => enter(client.token, otherThan(code))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(422));
    const [row] = await stack.services.database.db.select().from(verificationCodes).where(eq(verificationCodes.recipientId, client.id));
    expect(row!.attempts).toBe(5);
    const wrong = (await auditOf(envelopeId, client.id)).filter((entry) => entry.kind === 'recipient.code_failed' && entry.data.reason === 'wrong');
    expect(wrong).toHaveLength(5);
    expect((await enter(client.token, code)).body).toContain('entered wrongly too many times');
  });

  it('sends one code for two clicks at once', async () => {
    const { client } = await sendVerified();
    const answers = await Promise.all([sendCode(client.token), sendCode(client.token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 429]);
    expect(await stack.services.database.db.select().from(verificationCodes).where(eq(verificationCodes.recipientId, client.id))).toHaveLength(1);
    const mails = stack.services.mailbox.list().filter((email) => email.tags?.kind === 'verification_code' && email.tags.recipient_id === client.id);
    expect(mails).toHaveLength(1);
  });

  it('takes a code until its ten minutes are over, and not one millisecond after', async () => {
    const { client, witness } = await sendVerified();
    await sendCode(client.token);
    await sendCode(witness.token);
    stack.clock.advance(10 * MINUTE - 1);
    expect((await enter(client.token, emailedCode(client.id))).status).toBe(303);
    stack.clock.advance(1);
    const expired = await enter(witness.token, textedCode(witness.id));
    expect(expired.status).toBe(422);
    expect(expired.body).toContain('That code has expired. Send a new code.');
  });

  it('re-sends at most once a minute (at the minute, not a millisecond before) and five times an hour', async () => {
    const { client } = await sendVerified();
    const start = stack.clock.now().getTime();
    expect((await sendCode(client.token)).status).toBe(303);
    stack.clock.set(new Date(start + MINUTE - 1));
    const early = await sendCode(client.token);
    expect(early.status).toBe(429);
    expect(early.body).toContain('You can ask for a new code at');
    for (let sent = 2; sent <= 5; sent++) {
      stack.clock.set(new Date(start + (sent - 1) * MINUTE));
      expect((await sendCode(client.token)).status, `send ${sent}`).toBe(303);
    }
    stack.clock.set(new Date(start + 30 * MINUTE));
    expect((await sendCode(client.token)).status).toBe(429);
    const page = await open(`/sign/${client.token}`);
    expect(page.body).toMatch(/type="submit" disabled>Send me the code<\/button>/);
    // An hour after the first, it has left the window: a sixth may go.
    stack.clock.set(new Date(start + 60 * MINUTE - 1));
    expect((await sendCode(client.token)).status).toBe(429);
    stack.clock.set(new Date(start + 60 * MINUTE));
    expect((await sendCode(client.token)).status).toBe(303);
    const sent = await stack.services.database.db.select().from(verificationCodes).where(eq(verificationCodes.recipientId, client.id));
    expect(sent).toHaveLength(6);
  });

  it('refuses the code of another recipient', async () => {
    const { client, witness } = await sendVerified();
    await sendCode(client.token);
    await sendCode(witness.token);
    const theirs = textedCode(witness.id);
    const mine = emailedCode(client.id);
    if (theirs === mine) return; // one chance in a million: nothing to tell apart
    expect((await enter(client.token, theirs)).status).toBe(422);
    expect((await enter(witness.token, mine)).status).toBe(422);
    expect((await enter(witness.token, theirs)).status).toBe(303);
  });

  it('sends the sms_code role’s code by text message to the number, shown on the dev SMS page', async () => {
    const { witness, number } = await sendVerified();
    const step = await open(`/sign/${witness.token}`);
    expect(step.body).toContain('by text message to +44 *******456');
    expect((await sendCode(witness.token)).status).toBe(303);
    const message = stack.services.smsBox.list().find((sms) => sms.tags?.recipient_id === witness.id)!;
    expect(message.to).toBe(number);
    expect(message.body).toMatch(/^\d{6} is your code from Company [0-9a-f]{8}\. Do not share it\.$/);

    const dev = new Hono().route('/dev', devSmsRoutes(stack.services.smsBox));
    const page = await (await dev.request('/dev/sms')).text();
    expect(page).toContain(message.body.replace(/"/g, '&quot;'));
    expect(page).toContain(number);
    const json = (await (await dev.request('/dev/sms.json')).json()) as { data: { body: string }[] };
    expect(json.data.map((sms) => sms.body)).toContain(message.body);
  });

  it('tells the signer when the text message could not be sent, and counts nothing against the limits', async () => {
    const { witness } = await sendVerified();
    const box = stack.services.sms!;
    // Twilio refuses it (21211: not a valid number): surely not sent.
    const refused = async () => Response.json({ code: 21211, message: 'Invalid To' }, { status: 400 });
    stack.services.sms = new TwilioSms({ accountSid: 'AC00000000000000000000000000000000', authToken: 'token', from: '+15005550006' }, { fetch: refused });
    try {
      const failed = await sendCode(witness.token);
      expect(failed.status).toBe(503);
      expect(failed.body).toContain('The code could not be sent just now.');
      const generic = new Error('no text-message sender');
      stack.services.sms = { send: async () => Promise.reject(generic) };
      expect((await sendCode(witness.token)).status).toBe(503);
    } finally {
      stack.services.sms = box;
    }
    expect((await sendCode(witness.token)).status).toBe(303);
  });

  it('counts a code the provider never answered for as sent: it may arrive, works if it does, and the limits hold', async () => {
    const { envelopeId, witness } = await sendVerified();
    const box = stack.services.sms!;
    const asked: string[] = [];
    // Twilio takes the message but its answer never comes back within the timeout.
    const unanswered = (_url: string, init: RequestInit) => {
      asked.push(String(init.body));
      return new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    };
    stack.services.sms = new TwilioSms(
      { accountSid: 'AC00000000000000000000000000000000', authToken: 'token', from: '+15005550006' },
      { fetch: unanswered, timeoutMs: 20 },
    );
    try {
      const first = await sendCode(witness.token);
      expect(first.status).toBe(202);
      expect(first.body).toContain('The message service did not confirm that the code went out.');
      expect(first.body).toContain('name="code"');
      // At once again: too soon, as after any code sent; no second message asked of the provider.
      const again = await sendCode(witness.token);
      expect(again.status).toBe(429);
      expect(asked).toHaveLength(1);
    } finally {
      stack.services.sms = box;
    }
    // The message did arrive: its code works.
    const code = /^(\d{6}) /.exec(new URLSearchParams(asked[0]).get('Body') ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const verified = await enter(witness.token, code!);
    expect(verified.status).toBe(303);
    const trail = await auditOf(envelopeId, witness.id);
    expect(trail.filter((row) => row.kind === 'recipient.code_sent').map((row) => row.data.unconfirmed)).toEqual([true]);
    // The certificate of completion says so.
    const [walt] = await stack.services.database.db.select().from(recipients).where(eq(recipients.id, witness.id));
    const events = certificateTrail([walt!], trail)[0]!.events.map((event) => event.what);
    expect(events).toContain('Verification code sent by text message to +44 *******456 (the provider did not confirm it)');
  });

  it('tells, for an unconfirmed fifth code of the hour, the time the hourly limit allows the next, not a minute on', async () => {
    const { witness } = await sendVerified();
    for (let sent = 0; sent < 4; sent++) {
      expect((await sendCode(witness.token)).status).toBe(303);
      stack.clock.advance(MINUTE);
    }
    const box = stack.services.sms!;
    const unanswered = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    stack.services.sms = new TwilioSms(
      { accountSid: 'AC00000000000000000000000000000000', authToken: 'token', from: '+15005550006' },
      { fetch: unanswered, timeoutMs: 20 },
    );
    try {
      const fifth = await sendCode(witness.token);
      expect(fifth.status).toBe(202);
      // The notice's time and the step's own "next code" time agree: an hour after the first of the five.
      const told = /has not arrived by <time datetime="([^"]+)"/.exec(fifth.body)?.[1];
      const allowed = /You can ask for a new code at <time datetime="([^"]+)"/.exec(fifth.body)?.[1];
      expect(told).toMatch(/^\d{4}-/);
      expect(told).toBe(allowed);
    } finally {
      stack.services.sms = box;
    }
  });

  it.skipIf(!installed('pdftotext'))('records each code sent, each failed try and the verification on the certificate of completion', async () => {
    const { envelopeId, client, witness } = await sendVerified();
    const clientCookie = await verifyByEmail(client);
    await sendCode(witness.token);
    const code = textedCode(witness.id);
    await enter(witness.token, otherThan(code));
    const verified = await enter(witness.token, code);
    expect(verified.status).toBe(303);
    // Outside a frame the address stays bare: copied or forwarded, it must not verify whoever opens it.
    expect(verified.headers.get('location')).toBe(`/sign/${witness.token}`);
    const witnessProof = decodeURIComponent(cookieOf(verified).split('=')[1]!);

    for (const [link, proof] of [
      [client, decodeURIComponent(clientCookie.split('=')[1]!)],
      [witness, witnessProof],
    ] as const) {
      const who = { ip: '198.51.100.7', userAgent: 'test', proof };
      const state = await bySigner(stack.services, who, openSigningLink, { token: link.token });
      if (state.kind !== 'sign') throw new Error(`expected sign, got ${state.kind}`);
      const values = Object.fromEntries(state.fields.map((field) => [field.id, 'Signed']));
      await bySigner(stack.services, who, signAsRecipient, { token: link.token, submission: { consent: true, values } });
    }
    await vi.waitFor(
      async () => {
        const [row] = await stack.services.database.db.select({ sha: envelopes.signedDocumentSha256 }).from(envelopes).where(eq(envelopes.id, envelopeId));
        expect(row?.sha).toMatch(/^[0-9a-f]{64}$/);
      },
      { timeout: 40_000, interval: 200 },
    );
    const finished = await bySigner(stack.services, { ...testSigner, proof: decodeURIComponent(clientCookie.split('=')[1]!) }, signingDocument, {
      token: client.token,
    });
    const dir = mkdtempSync(join(tmpdir(), 'verification-certificate-'));
    try {
      writeFileSync(join(dir, 'finished.pdf'), await storedBytes(stack.services.documents, finished!.key));
      const text = execFileSync('pdftotext', [join(dir, 'finished.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      expect(text).toContain('Verification code sent by e-mail to d***@example.test');
      expect(text).toContain('Identity verified with the code sent by e-mail to d***@example.test');
      expect(text).toContain('Verification code sent by text message to +44 *******456');
      expect(text).toContain('Wrong verification code entered (try 1 of 5)');
      expect(text).toContain('Identity verified with the code sent by text message to +44 *******456');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
