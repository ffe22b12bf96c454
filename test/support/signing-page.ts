/**
 * The signing page over the real domain, as a browser meets it: an envelope sent through the API
 * from a template with one field of each kind, the page fetched and its forms posted over HTTP,
 * and what came of it read back from the stored rows. The company, its sender and its template are
 * made through the admin API, like an operator would. Links are made per test, so rate limits and
 * states never meet.
 */
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditEvents, envelopeFields, envelopes, recipients } from '../../src/data/schema.js';
import { signingToken } from '../../src/domain/envelopes/signing-links.js';
import { scopes } from '../../src/domain/auth/scopes.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { SIGNING_CSP } from '../../src/signing-page/security.js';
import { call } from './http.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from './stack.js';
import { unique } from './unique.js';

export const HOSTILE = `<script>alert("x")</script>`;
export const TITLE = 'Mutual Non-Disclosure Agreement';
export const MESSAGE = 'Hi Cleo,\nPlease review and sign the NDA before our meeting on Friday.\nThanks, Olivia';
export const DAY = 24 * 3600 * 1000;

type Labels = { text?: string; checkbox?: string };

/** Cleo's fields, as the page's tests have always laid them out; Walt signs once on page 2. */
export const pageTemplate = (labels: Labels = {}, overrides: Partial<TemplateDefinition> = {}): Partial<TemplateDefinition> => ({
  signing_order: 'parallel',
  roles: [
    { name: 'Client', type: 'signer', order: 1, locked: false },
    { name: 'Witness', type: 'signer', order: 2, locked: false },
    { name: 'Counsel', type: 'cc', order: 3, locked: true, recipient: { name: 'Carl Counsel', email: 'counsel@example.test' } },
  ],
  fields: [
    { role: 'Client', type: 'text', label: labels.text ?? 'Company name', page: 1, x: 72, y: 560, width: 220, height: 24, required: true },
    { role: 'Client', type: 'checkbox', label: labels.checkbox ?? 'I have read the terms', page: 1, x: 72, y: 610, width: 18, height: 18, required: false },
    { role: 'Client', type: 'initials', page: 1, x: 480, y: 700, width: 70, height: 36, required: true },
    { role: 'Client', type: 'signature', page: 2, x: 72, y: 560, width: 220, height: 50, required: true },
    { role: 'Client', type: 'name', page: 2, x: 72, y: 620, width: 220, height: 22, required: true },
    { role: 'Client', type: 'email', page: 2, x: 320, y: 620, width: 220, height: 22, required: true },
    { role: 'Client', type: 'date_signed', page: 2, x: 320, y: 575, width: 140, height: 22, required: true },
    { role: 'Witness', type: 'signature', page: 2, x: 72, y: 700, width: 200, height: 40, required: true },
  ],
  ...overrides,
});

export type Ids = { text: string; checkbox: string; initials: string; signature: string; name: string; email: string; date_signed: string };
export type SentLinks = { envelopeId: string; client: string; witness: string; counsel: string; clientId: string; ids: Ids; senderEmail: string };
export type PageCompany = { id: string; token: string; senderEmail: string };

async function admin(stack: TestStack, method: string, path: string, body: unknown) {
  const answer = await call(stack, method, path, { token: ADMIN_TOKEN, ...(body instanceof FormData ? { rawBody: body } : { body }) });
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A company with Olivia, its sender, and her bearer token, made through the admin API and the token exchange. */
export async function createPageCompany(stack: TestStack): Promise<PageCompany> {
  const company = await admin(stack, 'POST', '/admin/v1/companies', { name: `Acme ${unique()}`, api_signature_requests_per_period: 1000 });
  const senderEmail = `olivia-${unique()}@acme.test`;
  await admin(stack, 'PUT', `/admin/v1/companies/${company.id}/users/${senderEmail}`, { name: 'Olivia Owner', role: 'owner', esign_seat: true });
  const { key } = await admin(stack, 'POST', `/admin/v1/companies/${company.id}/api-keys`, { owner: senderEmail, scopes: [...scopes] });
  const exchanged = await call(stack, 'POST', '/v1/auth/token', { body: { api_key: key } });
  return { id: company.id, token: exchanged.body.access_token, senderEmail };
}

type Send = { template?: Partial<TemplateDefinition>; title?: string; message?: string; client?: string; witness?: string };

/** An envelope sent through the API: Cleo's, Walt's and Carl's (the copy's) links, and Cleo's field ids by kind. */
export async function sendForPage(stack: TestStack, company: PageCompany, send: Send = {}): Promise<SentLinks> {
  const definition = { name: `NDA ${unique()}`, ...(send.template ?? pageTemplate()) };
  const form = new FormData();
  form.set('template', JSON.stringify(definition));
  form.set('document', new Blob([(await generateDocument(definition.name, 2, nodeFontSource())) as BlobPart], { type: 'application/pdf' }), 'nda.pdf');
  const { id } = await admin(stack, 'POST', `/admin/v1/companies/${company.id}/templates`, form);
  const tag = unique();
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.token,
    body: {
      template_id: id,
      title: send.title ?? TITLE,
      email_message: send.message ?? MESSAGE,
      recipients: [
        { role: 'Client', name: send.client ?? 'Cleo Client', email: `cleo-${tag}@example.com` },
        { role: 'Witness', name: send.witness ?? 'Walt Witness', email: `walt-${tag}@example.com` },
      ],
    },
  });
  if (answer.status !== 201) throw new Error(`The send answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const envelopeId = answer.body.envelope_id as string;
  const { db } = stack.services.database;
  const people = await db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId));
  const byRole = (order: number) => people.find((person) => person.order === order)!;
  const tokenOf = (order: number) => signingToken(stack.services.config.tokenSecret, envelopeId, byRole(order).id);
  const fields = await db
    .select()
    .from(envelopeFields)
    .where(eq(envelopeFields.recipientId, byRole(1).id));
  const ids = Object.fromEntries(fields.map((field) => [field.type, field.id])) as Ids;
  return {
    envelopeId,
    client: await tokenOf(1),
    witness: await tokenOf(2),
    counsel: await tokenOf(3),
    clientId: byRole(1).id,
    ids,
    senderEmail: company.senderEmail,
  };
}

export type Answer = { status: number; text: string; headers: Headers };

/** The page's requests, from a client address of their own unless a test names one. */
/** A stack with a company set up for the signing page, and a client of its pages. */
export async function openPageStack(): Promise<{ stack: TestStack; company: PageCompany; client: ReturnType<typeof pageClient> }> {
  const stack = await openStack();
  return { stack, company: await createPageCompany(stack), client: pageClient(stack) };
}

export function pageClient(stack: TestStack) {
  const secret = stack.services.config.tokenSecret;
  async function request(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}): Promise<Answer> {
    const response = await stack.app.request(path, { method, headers: init.headers, body: init.body });
    return { status: response.status, text: await response.text(), headers: response.headers };
  }
  const page = (token: string, headers: Record<string, string> = {}) => request('GET', `/sign/${token}`, { headers });
  /** A post as the page's own form makes it: this origin, urlencoded, the right form token; an undefined header is not sent. */
  async function post(path: string, token: string, fields: Record<string, string> | [string, string][], headers: Record<string, string | undefined> = {}) {
    const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
    body.append('form_token', await formToken(secret, token));
    const sent = { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin', ...headers };
    const present = Object.fromEntries(Object.entries(sent).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return request('POST', path, { headers: present, body: body.toString() });
  }
  const sign = (token: string, fields: Record<string, string> | [string, string][], headers?: Record<string, string | undefined>) =>
    post(`/sign/${token}`, token, fields, headers);
  const decline = (token: string, reason: string, headers?: Record<string, string | undefined>) => post(`/sign/${token}/decline`, token, { reason }, headers);
  const voidEnvelope = async (envelopeId: string) =>
    expect((await call(stack, 'POST', `/admin/v1/envelopes/${envelopeId}/void`, { token: ADMIN_TOKEN, body: {} })).status).toBe(200);
  return { request, page, post, sign, decline, voidEnvelope, formToken: (token: string) => formToken(secret, token) };
}

/** Cleo's form, filled in as a signer would. */
export const completeForm = (ids: Ids): Record<string, string> => ({
  consent: 'yes',
  [`field.${ids.text}`]: 'Acme Ltd',
  [`field.${ids.checkbox}`]: 'yes',
  [`field.${ids.initials}`]: 'CC',
  [`field.${ids.signature}`]: 'Cleo Client',
});

/** What a signer's acts left: their status, their consent, signature and decline audit rows, and their first views. */
export async function actsOf(stack: TestStack, envelopeId: string, recipientId: string) {
  const { db } = stack.services.database;
  const [[person], audit] = await Promise.all([
    db.select().from(recipients).where(eq(recipients.id, recipientId)),
    db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.actorId, recipientId))),
  ]);
  const acts = audit.filter((row) => ['recipient.consented', 'recipient.signed', 'recipient.declined'].includes(row.kind));
  const viewed = audit.filter((row) => row.kind === 'recipient.viewed').map((row) => row.data);
  return { status: person!.status, acts: acts.map((row) => ({ kind: row.kind, data: row.data })), viewed };
}

/** The values stored for a signer's fields, by field id. */
export async function storedValues(stack: TestStack, recipientId: string) {
  const rows = await stack.services.database.db.select().from(envelopeFields).where(eq(envelopeFields.recipientId, recipientId));
  return Object.fromEntries(rows.map((row) => [row.id, row.value]));
}

/** Waits for the finished PDF, which a queue job makes after the last signature. */
export async function finished(stack: TestStack, envelopeId: string) {
  await stack.services.inProcessQueue.drained();
  const [envelope] = await stack.services.database.db.select().from(envelopes).where(eq(envelopes.id, envelopeId));
  expect(envelope?.signedDocumentKey).toBeTruthy();
}

export function expectSecurityHeaders(answer: { headers: Headers }, what: string) {
  expect(answer.headers.get('cache-control'), what).toBe('no-store');
  expect(answer.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(answer.headers.get('content-security-policy'), what).toBe(SIGNING_CSP);
  expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(answer.headers.get('x-frame-options'), what).toBe('DENY');
}
