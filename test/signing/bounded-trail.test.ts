/**
 * Nothing a signer, or whoever holds their link, repeats grows the record without bound: failed
 * tries at a code past the first KEPT_ROWS are counted on one row (tries at once included); a flood
 * of rows stored one per try by older versions is read and printed bounded, so the envelope still
 * finishes under the PDF deadline with a certificate of a few pages; the admin audit endpoint
 * answers it page by page.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { MAX_LINES_PER_RECIPIENT } from '../../src/domain/signing/certificate-trail.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { COUNTED_KIND, KEPT_ROWS } from '../../src/domain/signing/repeated-events.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { DEFAULT_PDF_DEADLINE_MS } from '../../src/lib/deadline.js';
import type { FinishRequest } from '../../src/ports/pdf-maker.js';
import { type ThreadedPdfMaker, threadedPdfMaker } from '../../src/pdf/threaded-pdf-maker.js';
import { drained } from '../support/drained.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { installed } from '../support/outside-tools.js';
import { pdfText } from '../support/pdf-text.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';
import { finishedPdf, templatePdf } from '../support/stored-documents.js';
import { bySigner } from '../support/signer-verbs.js';

let stack: TestStack;
let company: TestCompany;
let templateId: string;
let maker: ThreadedPdfMaker;
const requests: FinishRequest[] = [];
const failures: unknown[] = [];
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 100 });
  templateId = (
    await createTestTemplate(stack, company.id, {
      signing_order: 'parallel',
      roles: [
        { name: 'Client', type: 'signer', order: 1, locked: false, verification: 'email_code' },
        { name: 'Witness', type: 'signer', order: 1, locked: false },
      ],
    })
  ).id;
  // The PDF work as npm start runs it: in its thread, under the deadline a finish must meet.
  maker = threadedPdfMaker(stack.services.config, stack.services.documents, { deadlineMs: DEFAULT_PDF_DEADLINE_MS });
  stack.services.pdf = {
    pageSizes: (key) => maker.pageSizes(key),
    typedSignaturesFit: (signatures) => maker.typedSignaturesFit(signatures),
    filledCopy: (request) => maker.filledCopy(request),
    finish: (request) => {
      requests.push(request);
      return maker.finish(request).catch((err: unknown) => {
        failures.push(err);
        throw err;
      });
    },
  };
});
afterAll(async () => {
  await maker.close();
  await stack.close();
});

const MINUTE = 60_000;
const who = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (test)' };

async function send() {
  const tag = unique();
  // A token of now: tests move the clock past its hour.
  const { access_token } = await exchangeApiKey({ services: stack.services, now: stack.clock.now() }, { apiKey: company.owner.key });
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: access_token,
    body: {
      template_id: templateId,
      recipients: [
        { role: 'Client', name: 'Dana Client', email: `dana-${tag}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${tag}@example.test` },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const entries = answer.body.signing_urls as { recipient_id: string; name: string; signing_url: string }[];
  const linkOf = (name: string, entry = entries.find((candidate) => candidate.name === name)!) => ({
    id: entry.recipient_id,
    token: entry.signing_url.split('/sign/')[1]!,
  });
  return { envelopeId: answer.body.envelope_id as string, client: linkOf('Dana Client'), witness: linkOf('Walt Witness') };
}

/** A post as the page's own form makes it. */
async function post(path: string, token: string, fields: Record<string, string> = {}) {
  const body = new URLSearchParams({ ...fields, form_token: await formToken(stack.services.config.tokenSecret, token), lang: 'en' });
  return call(stack, 'POST', path, {
    rawBody: body.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: BASE_URL,
      'sec-fetch-site': 'same-origin',
      'user-agent': who.userAgent,
      'x-test-client-ip': who.ip,
    },
  });
}
const sendCode = (token: string) => post(`/sign/${token}/code`, token);
const enter = (token: string, code: string) => post(`/sign/${token}/verify`, token, { code });

function emailedCode(recipientId: string): string {
  const mail = stack.services.mailbox.list().find((email) => email.tags?.kind === 'verification_code' && email.tags.recipient_id === recipientId);
  const code = / is (\d{6})\./.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error('no code e-mail');
  return code;
}
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The right code entered: the browser's proof, from its cookie. */
async function verify(link: { id: string; token: string }): Promise<string> {
  expect((await sendCode(link.token)).status).toBe(303);
  const verified = await enter(link.token, emailedCode(link.id));
  expect(verified.status).toBe(303);
  return decodeURIComponent(verified.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!);
}

/** A recipient's own rows of `kind`, and the row that counts the rest. */
async function rowsOf(envelopeId: string, recipientId: string, kind: string) {
  const ofRecipient = and(eq(auditEvents.envelopeId, envelopeId), sql`${auditEvents.data}->>'recipient_id' = ${recipientId}`);
  const rows = await stack.services.database.db.select().from(auditEvents).where(ofRecipient).orderBy(asc(auditEvents.createdAt));
  return { own: rows.filter((row) => row.kind === kind), counted: rows.filter((row) => row.kind === COUNTED_KIND && row.data.counts === kind) };
}

const failedTries = (envelopeId: string, recipientId: string) => rowsOf(envelopeId, recipientId, 'recipient.code_failed');

/** Both sign (the Client with their proof); the finishing job runs; the finished PDF's bytes. */
async function complete(envelopeId: string, links: { token: string; proof?: string }[]): Promise<Uint8Array> {
  for (const link of links) {
    const signer = { ...who, proof: link.proof };
    const state = await bySigner(stack.services, signer, openSigningLink, { token: link.token });
    if (state.kind !== 'sign') throw new Error(`expected sign, got ${state.kind}`);
    const values = Object.fromEntries(state.fields.map((field) => [field.id, 'Signed']));
    await bySigner(stack.services, signer, signAsRecipient, { token: link.token, submission: { consent: true, values } });
  }
  await drained(stack);
  const bytes = await finishedPdf(stack.services, envelopeId);
  expect(failures).toEqual([]);
  expect(bytes, 'the finished PDF is stored').toBeTruthy();
  return bytes!;
}

const requestOf = (envelopeId: string) => requests.find((request) => request.envelopeId === envelopeId)!;
const isoUtc = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

describe('failed tries at a code', () => {
  it(`keep ${KEPT_ROWS} rows of their own, then count the rest on one row, which the certificate prints as "N further … between t1 and t2"`, async () => {
    const { envelopeId, client, witness } = await send();
    expect((await sendCode(client.token)).status).toBe(303);
    const code = emailedCode(client.id);
    const times: Date[] = [];
    const tryWrong = async () => {
      stack.clock.advance(1000);
      times.push(stack.clock.now());
      expect((await enter(client.token, otherThan(code))).status).toBe(422);
    };
    // Five wrong tries kill the code; the tries after it are failures too.
    for (let i = 0; i < KEPT_ROWS; i++) await tryWrong();
    let { own, counted } = await failedTries(envelopeId, client.id);
    expect(own).toHaveLength(KEPT_ROWS);
    expect(counted).toEqual([]);

    await tryWrong(); // one past the rows kept
    ({ own, counted } = await failedTries(envelopeId, client.id));
    expect(own).toHaveLength(KEPT_ROWS);
    expect(counted).toHaveLength(1);
    expect(counted[0]!.data).toMatchObject({
      count: 1,
      first_at: times[KEPT_ROWS]!.toISOString(),
      last_at: times[KEPT_ROWS]!.toISOString(),
      ip: who.ip,
      user_agent: who.userAgent,
    });

    await tryWrong();
    await tryWrong();
    ({ own, counted } = await failedTries(envelopeId, client.id));
    expect(own).toHaveLength(KEPT_ROWS);
    expect(counted).toHaveLength(1);
    expect(counted[0]!.data).toMatchObject({ count: 3, first_at: times[KEPT_ROWS]!.toISOString(), last_at: times[KEPT_ROWS + 2]!.toISOString() });
    // The real signer is not locked out: a new code a minute on works.
    stack.clock.advance(MINUTE);
    const proof = await verify(client);

    const bytes = await complete(envelopeId, [{ token: client.token, proof }, { token: witness.token }]);
    const lines = requestOf(envelopeId)
      .recipients.find((recipient) => recipient.name === 'Dana Client')!
      .events.map((event) => event.what);
    const further = `3 further failed tries at a verification code between ${isoUtc(times[KEPT_ROWS]!)} and ${isoUtc(times[KEPT_ROWS + 2]!)}`;
    expect(lines.filter((line) => /^(Wrong verification code|Verification code entered after)/.test(line))).toHaveLength(KEPT_ROWS);
    expect(lines).toContain(further);
    if (installed('pdftotext')) expect(pdfText(bytes)).toContain(further);
  }, 120_000);

  it(`made at once keep no more than ${KEPT_ROWS} rows between them, and count every other`, async () => {
    const { envelopeId, client, witness } = await send();
    expect((await sendCode(client.token)).status).toBe(303);
    const code = emailedCode(client.id);
    const answers = await Promise.all(Array.from({ length: 25 }, () => enter(client.token, otherThan(code))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(422));
    const { own, counted } = await failedTries(envelopeId, client.id);
    expect(own).toHaveLength(KEPT_ROWS);
    expect(counted).toHaveLength(1);
    expect(counted[0]!.data.count).toBe(25 - KEPT_ROWS);
    // Another recipient's count is their own.
    expect((await failedTries(envelopeId, witness.id)).counted).toEqual([]);
  }, 60_000);
});

describe('codes sent', () => {
  it(`keep ${KEPT_ROWS} rows of their own over the envelope's life, then count the rest`, async () => {
    const { envelopeId, client } = await send();
    // Within the link's limits: one a minute, five an hour.
    const sendLater = async () => {
      stack.clock.advance(13 * MINUTE);
      expect((await sendCode(client.token)).status).toBe(303);
    };
    for (let i = 0; i < KEPT_ROWS; i++) await sendLater();
    expect(await rowsOf(envelopeId, client.id, 'recipient.code_sent')).toMatchObject({ own: { length: KEPT_ROWS }, counted: [] });
    await sendLater();
    const { own, counted } = await rowsOf(envelopeId, client.id, 'recipient.code_sent');
    expect(own).toHaveLength(KEPT_ROWS);
    expect(counted.map((row) => row.data)).toMatchObject([
      { count: 1, first_at: stack.clock.now().toISOString(), last_at: stack.clock.now().toISOString(), to: 'd***@example.test' },
    ]);
  }, 60_000);
});

describe('a flood of failed tries stored one row each by an older version', () => {
  const FLOOD = 45_000;

  it('still finishes its envelope under the PDF deadline, with a certificate of a few pages that counts them; the admin trail answers page by page', async () => {
    const { envelopeId, client, witness } = await send();
    const proof = await verify(client);
    const first = stack.clock.now();
    // As versions before the count wrote them: one row a try, a second apart.
    await stack.services.database.db.execute(sql`
      insert into ${auditEvents} (company_id, envelope_id, kind, actor_type, actor_id, data, created_at)
      select ${company.id}::uuid, ${envelopeId}, 'recipient.code_failed', 'recipient', ${client.id},
        jsonb_build_object('recipient_id', ${client.id}::text, 'email', 'dana@example.test', 'ip', '203.0.113.' || (n % 250), 'user_agent', 'flood',
          'channel', 'email', 'code_id', ${crypto.randomUUID()}::text, 'reason', 'dead'),
        ${first.toISOString()}::timestamptz + n * interval '1 second'
      from generate_series(1, ${FLOOD}) n`);
    stack.clock.advance((FLOOD + 1) * 1000);

    const bytes = await complete(envelopeId, [{ token: client.token, proof }, { token: witness.token }]);
    const events = requestOf(envelopeId).recipients.find((recipient) => recipient.name === 'Dana Client')!.events;
    expect(events.length).toBeLessThanOrEqual(MAX_LINES_PER_RECIPIENT);
    const at = (n: number) => isoUtc(new Date(first.getTime() + n * 1000));
    expect(events.map((event) => event.what)).toContain(
      `${FLOOD - KEPT_ROWS} further failed tries at a verification code between ${at(KEPT_ROWS + 1)} and ${at(FLOOD)}`,
    );

    const template = await templatePdf(stack.services, templateId);
    const documentPages = (await PDFDocument.load(template!)).getPageCount();
    const certificatePages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount() - documentPages;
    expect(certificatePages).toBeGreaterThanOrEqual(1);
    expect(certificatePages).toBeLessThanOrEqual(3);
    if (installed('pdftotext')) expect(pdfText(bytes)).toContain(`${FLOOD - KEPT_ROWS} further failed tries at a verification code`);

    // The operator reads the whole trail, a hundred events at a time.
    const trailOf = (query: string) => call(stack, 'GET', `/admin/v1/envelopes/${envelopeId}/audit${query}`, { token: ADMIN_TOKEN });
    const firstPage = await trailOf('');
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.events).toHaveLength(100);
    const total = firstPage.body.pagination.total as number;
    expect(total).toBeGreaterThan(FLOOD);
    expect(firstPage.body.pagination).toEqual({ page: 1, per_page: 100, total, total_pages: Math.ceil(total / 100) });
    const last = await trailOf(`?page=${Math.ceil(total / 100)}&per_page=100`);
    expect(last.body.events).toHaveLength(total % 100 || 100);
    expect(last.body.events.map((event: { kind: string }) => event.kind)).toContain('envelope.document_ready');
    expect((await trailOf(`?page=${Math.ceil(total / 100) + 1}`)).body.events).toEqual([]);
    expect((await trailOf('?per_page=101')).status).toBe(422);
  }, 300_000);
});
