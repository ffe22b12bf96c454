/**
 * The company application's envelopes over the real stack: the list with its filters, search and
 * pages; an envelope's page (its recipients' steps, its timeline, never a signing link); the
 * finished PDF; void and remind by role, scoped to the company, audited; bad input answered with
 * the page's error and nothing changed.
 *
 * One file although long: its cases share one stack and its companies, and read as one walk
 * through the feature; split, each part would open a stack of its own.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, envelopes } from '../../src/data/schema.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import type { SigningState } from '../../src/domain/signing/signing-state.js';
import { type AppClient, appClient, signIn } from '../support/app-client.js';
import { drained } from '../support/drained.js';
import { addKeyHolder, createTestCompany, sendTestEnvelope, type TestCompany, type TestKey } from '../support/factories.js';
import { call } from '../support/http.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
let member: TestKey;
let viewer: TestKey;
let owners: { envelopeId: string; links: { recipientId: string; token: string }[] }[];
let members: { envelopeId: string; links: { recipientId: string; token: string }[] };
let otherEnvelope: string;

const HOUR = 3600 * 1000;

beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
  other = await createTestCompany(stack);
  member = await addKeyHolder(stack, company.id, { role: 'member' });
  viewer = await addKeyHolder(stack, company.id, { role: 'viewer' });
  owners = [];
  for (let i = 0; i < 3; i++) {
    owners.push(await sendTestEnvelope(stack, company));
    stack.clock.advance(60_000);
  }
  members = await sendTestEnvelope(stack, { ...company, owner: member });
  otherEnvelope = (await sendTestEnvelope(stack, other)).envelopeId;
  await drained(stack);
});
afterAll(() => stack.close());

/** One browser per person, signed in once: sign-in links are limited per address. */
const browsers = new Map<string, AppClient>();
async function signedInAs(email: string) {
  let client = browsers.get(email);
  if (!client) {
    client = appClient(stack);
    expect((await signIn(stack, client, email)).status).toBe(303);
    browsers.set(email, client);
  }
  return client;
}

const rowsOf = (page: string) => [...page.matchAll(/<a href="\/app\/envelopes\/(env_[^"]+)">/g)].map((match) => match[1]);

async function titleOf(envelopeId: string) {
  const [row] = await stack.services.database.db
    .select({ title: envelopes.title, templateId: envelopes.templateId })
    .from(envelopes)
    .where(eq(envelopes.id, envelopeId));
  return row!;
}

function completeForm(state: SigningState) {
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  return { consent: true, values: Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : state.recipient.name])) };
}

async function signAs(token: string) {
  const state = await bySigner(stack.services, testSigner, openSigningLink, { token });
  return bySigner(stack.services, testSigner, signAsRecipient, { token, submission: completeForm(state) });
}

const reminderMails = (envelopeId: string, recipientId: string) =>
  stack.services.mailbox
    .list()
    .filter((mail) => mail.tags?.envelope_id === envelopeId && mail.tags?.recipient_id === recipientId && mail.tags?.kind === 'reminder');

describe('the list of envelopes', () => {
  it('shows the company its envelopes newest first, with progress and never another company’s', async () => {
    const client = await signedInAs(company.owner.ownerEmail);
    const page = await client.get('/app/envelopes');
    expect(page.status).toBe(200);
    expect(rowsOf(page.body)).toEqual([members.envelopeId, ...owners.map((e) => e.envelopeId).reverse()]);
    expect(page.body).not.toContain(otherEnvelope);
    expect(page.body).toContain('0 of 2');
    expect(page.body).toContain('Out for signature');
    expect(page.body).toContain('aria-current="page"');
  });

  it('filters by state, template, sender and the days sent, each alone and combined, and searches title and recipient e-mail', async () => {
    const client = await signedInAs(company.owner.ownerEmail);
    const first = await titleOf(owners[0]!.envelopeId);
    const list = async (query: string) => {
      const page = await client.get(`/app/envelopes?${query}`);
      expect(page.status, query).toBe(200);
      return rowsOf(page.body);
    };
    expect(await list('state=sent')).toHaveLength(4);
    expect(await list('state=voided')).toEqual([]);
    expect(await list(`template=${first.templateId}`)).toEqual([owners[0]!.envelopeId]);
    const [memberRow] = await stack.services.database.db.select({ sender: envelopes.senderUserId }).from(envelopes).where(eq(envelopes.id, members.envelopeId));
    expect(await list(`sender=${memberRow!.sender}`)).toEqual([members.envelopeId]);
    const today = stack.clock.now().toISOString().slice(0, 10);
    expect(await list(`from=${today}&to=${today}`)).toHaveLength(4);
    expect(await list('from=2001-01-01&to=2001-01-02')).toEqual([]);
    // The title, any case; a recipient's address, any case.
    expect(await list(`q=${encodeURIComponent(first.title.toUpperCase())}`)).toEqual([owners[0]!.envelopeId]);
    const [row] = await stack.services.database.db
      .select({ email: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, owners[1]!.envelopeId), eq(auditEvents.kind, 'envelope.sent')));
    const cleo = (row!.email as { recipients: { email: string }[] }).recipients[0]!.email.toUpperCase();
    expect(await list(`q=${encodeURIComponent(cleo)}`)).toEqual([owners[1]!.envelopeId]);
    // LIKE's wildcards are themselves: '%' and '_' match no title here.
    expect(await list('q=%25')).toEqual([]);
    expect(await list('q=_')).toEqual([]);
    // Combined: the template and its state, and the search with another sender.
    expect(await list(`state=sent&template=${first.templateId}&from=${today}`)).toEqual([owners[0]!.envelopeId]);
    expect(await list(`q=${encodeURIComponent(first.title)}&sender=${memberRow!.sender}`)).toEqual([]);
    const empty = await client.get(`/app/envelopes?q=nothing-${unique()}`);
    expect(empty.body).toContain('No envelope matches.');
  });

  it('pages within bounds, and answers a bad date, page or size with the page’s error and no list', async () => {
    const client = await signedInAs(company.owner.ownerEmail);
    const second = await client.get('/app/envelopes?per_page=1&page=2');
    expect(rowsOf(second.body)).toEqual([owners[2]!.envelopeId]);
    expect(second.body).toContain('Page 2 of 4');
    expect(second.body).toContain('rel="prev"');
    expect(second.body).toContain('rel="next"');
    expect(rowsOf((await client.get('/app/envelopes?per_page=100')).body)).toHaveLength(4);
    expect(rowsOf((await client.get('/app/envelopes?page=1000')).body)).toEqual([]);
    expect((await client.get('/app/envelopes?page=1000')).body).toContain('There are no envelopes on this page.');
    for (const query of [
      'from=2025-02-30',
      'to=yesterday',
      'from=2025-03-02&to=2025-03-01',
      'page=0',
      'page=1001',
      'per_page=101',
      'per_page=0',
      'state=lost',
      'template=1',
      `q=${'x'.repeat(201)}`,
    ]) {
      const page = await client.get(`/app/envelopes?${query}`);
      expect(page.status, query).toBe(400);
      expect(page.body, query).toContain('Some filters could not be read');
      if (!/^(page|per_page)=/.test(query)) expect(page.body, query).toContain('aria-invalid="true"');
      expect(rowsOf(page.body), query).toEqual([]);
    }
  });

  it('is for every role, the viewer included', async () => {
    const client = await signedInAs(viewer.ownerEmail);
    expect(rowsOf((await client.get('/app/envelopes')).body)).toHaveLength(4);
  });
});

describe('an envelope’s page', () => {
  it('shows each recipient’s state and times and the timeline, never a signing link', async () => {
    const client = await signedInAs(company.owner.ownerEmail);
    const page = await client.get(`/app/envelopes/${owners[0]!.envelopeId}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Cleo Client');
    expect(page.body).toContain('Walt Witness');
    expect(page.body).toContain('was e-mailed the request to sign');
    expect(page.body).toContain(`Sent by ${company.owner.ownerEmail}, from version 1 of the template`);
    expect(page.body).toContain('Remind now');
    expect(page.body).toContain('Void the envelope');
    expect(page.body).toContain('once everyone has signed');
    expect(page.body).not.toContain('/sign/');
    for (const link of owners[0]!.links) expect(page.body).not.toContain(link.token);
  });

  it('answers another company’s envelope, and one that is none, as the 404 page: reading, downloading, voiding, reminding', async () => {
    const client = await signedInAs(company.owner.ownerEmail);
    for (const id of [otherEnvelope, 'env_unknown', 'not-an-id']) {
      expect((await client.get(`/app/envelopes/${id}`)).status, id).toBe(404);
      expect((await client.get(`/app/envelopes/${id}/document.pdf`)).status, id).toBe(404);
      await client.get('/app/envelopes');
      expect((await client.post(`/app/envelopes/${id}/void`, { reason: 'no' })).status, id).toBe(404);
      await client.get('/app/envelopes');
      expect((await client.post(`/app/envelopes/${id}/remind`, { recipient_id: 'rcp_x' })).status, id).toBe(404);
    }
    const [row] = await stack.services.database.db.select({ status: envelopes.status }).from(envelopes).where(eq(envelopes.id, otherEnvelope));
    expect(row!.status).toBe('sent');
  });
});

describe('voiding', () => {
  it('voids with a reason, audited as the user, and the signing link then shows the voided page', async () => {
    const envelope = await sendTestEnvelope(stack, company);
    const client = await signedInAs(company.owner.ownerEmail);
    await client.get(`/app/envelopes/${envelope.envelopeId}`);
    const missing = await client.post(`/app/envelopes/${envelope.envelopeId}/void`, { reason: '  ' });
    expect(missing.status).toBe(422);
    expect(missing.body).toContain('Say why the envelope is voided.');
    const tooLong = await client.post(`/app/envelopes/${envelope.envelopeId}/void`, { reason: 'x'.repeat(501) });
    expect(tooLong.status).toBe(422);
    expect(
      (await titleOf(envelope.envelopeId)) &&
        (await stack.services.database.db.select({ s: envelopes.status }).from(envelopes).where(eq(envelopes.id, envelope.envelopeId)))[0]!.s,
    ).toBe('sent');

    const voided = await client.post(`/app/envelopes/${envelope.envelopeId}/void`, { reason: 'Wrong client' });
    expect(voided.status).toBe(303);
    expect(voided.headers.get('location')).toBe(`/app/envelopes/${envelope.envelopeId}?done=voided`);
    const page = await client.get(voided.headers.get('location')!);
    expect(page.body).toContain('The envelope is voided.');
    expect(page.body).toContain('Voided by');
    expect(page.body).toContain('Wrong client');
    expect(page.body).not.toContain('action="/app/envelopes/' + envelope.envelopeId + '/void"');
    const [audit] = await stack.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelope.envelopeId), eq(auditEvents.kind, 'envelope.voided')));
    expect(audit!.actorType).toBe('user');
    expect(audit!.data).toEqual({ reason: 'Wrong client' });
    const signing = await call(stack, 'GET', `/sign/${envelope.links[0]!.token}`);
    expect(signing.body).toContain('This document was cancelled');
    // Voiding again (a second click) answers the same and records nothing more.
    expect((await client.post(`/app/envelopes/${envelope.envelopeId}/void`, { reason: 'again' })).status).toBe(303);
    expect(
      await stack.services.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.envelopeId, envelope.envelopeId), eq(auditEvents.kind, 'envelope.voided'))),
    ).toHaveLength(1);
    await drained(stack);
  });

  it('lets a member void only the envelopes they sent, and a viewer none (forged posts 403, nothing changed)', async () => {
    const ownersEnvelope = await sendTestEnvelope(stack, company);
    const membersEnvelope = await sendTestEnvelope(stack, { ...company, owner: member });
    const asMember = await signedInAs(member.ownerEmail);
    const ownersPage = await asMember.get(`/app/envelopes/${ownersEnvelope.envelopeId}`);
    expect(ownersPage.status).toBe(200);
    expect(ownersPage.body).not.toContain('/void"');
    expect(ownersPage.body).not.toContain('Remind now');
    const forged = await asMember.post(`/app/envelopes/${ownersEnvelope.envelopeId}/void`, { reason: 'mine now' });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('Your role does not allow this');
    await asMember.get('/app/envelopes');
    expect((await asMember.post(`/app/envelopes/${ownersEnvelope.envelopeId}/remind`, { recipient_id: ownersEnvelope.links[0]!.recipientId })).status).toBe(
      403,
    );
    const own = await asMember.get(`/app/envelopes/${membersEnvelope.envelopeId}`);
    expect(own.body).toContain('/void"');
    expect((await asMember.post(`/app/envelopes/${membersEnvelope.envelopeId}/void`, { reason: 'Sent twice' })).status).toBe(303);

    const asViewer = await signedInAs(viewer.ownerEmail);
    const viewersPage = await asViewer.get(`/app/envelopes/${ownersEnvelope.envelopeId}`);
    expect(viewersPage.body).not.toContain('/void"');
    expect(viewersPage.body).not.toContain('Remind now');
    expect((await asViewer.post(`/app/envelopes/${ownersEnvelope.envelopeId}/void`, { reason: '' })).status).toBe(403);
    const [row] = await stack.services.database.db.select({ status: envelopes.status }).from(envelopes).where(eq(envelopes.id, ownersEnvelope.envelopeId));
    expect(row!.status).toBe('sent');
    await drained(stack);
  });
});

describe('the finished PDF', () => {
  it('downloads once completed, streamed with its hash; before, the page says when', async () => {
    const envelope = await sendTestEnvelope(stack, company);
    const client = await signedInAs(viewer.ownerEmail);
    expect((await client.get(`/app/envelopes/${envelope.envelopeId}/document.pdf`)).status).toBe(409);
    for (const link of envelope.links) await signAs(link.token);
    await drained(stack);
    const page = await client.get(`/app/envelopes/${envelope.envelopeId}`);
    expect(page.body).toContain('Completed');
    expect(page.body).toContain('Download the finished PDF');
    expect(page.body).toContain('certificate of completion is inside the finished PDF');
    const pdf = await stack.app.request(`/app/envelopes/${envelope.envelopeId}/document.pdf`, {
      headers: { cookie: [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename=".+-signed\.pdf"$/);
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const asOwner = await signedInAs(company.owner.ownerEmail);
    await asOwner.get(`/app/envelopes/${envelope.envelopeId}`);
    const late = await asOwner.post(`/app/envelopes/${envelope.envelopeId}/void`, { reason: 'too late' });
    expect(late.status).toBe(409);
    expect(late.body).toContain('cannot be voided');
    const list = await client.get('/app/envelopes?state=completed');
    expect(rowsOf(list.body)).toContain(envelope.envelopeId);
  });
});

describe('remind now', () => {
  it('refuses a recipient whose turn it is not, and one who has signed', async () => {
    const envelope = await sendTestEnvelope(stack, company, { signing_order: 'sequential' });
    await drained(stack);
    const client = await signedInAs(company.owner.ownerEmail);
    await client.get(`/app/envelopes/${envelope.envelopeId}`);
    const [client1, witness] = envelope.links;
    const notYet = await client.post(`/app/envelopes/${envelope.envelopeId}/remind`, { recipient_id: witness!.recipientId });
    expect(notYet.status).toBe(409);
    expect(notYet.body).toContain('it is not their turn');
    await signAs(client1!.token);
    expect((await client.post(`/app/envelopes/${envelope.envelopeId}/remind`, { recipient_id: client1!.recipientId })).status).toBe(409);
    await drained(stack);
    expect(reminderMails(envelope.envelopeId, witness!.recipientId)).toHaveLength(0);
  });
  it('e-mails the reminder once, refuses a second within the hour with the page’s message and no e-mail, and allows it after', async () => {
    const envelope = await sendTestEnvelope(stack, company);
    await drained(stack);
    const recipientId = envelope.links[0]!.recipientId;
    const client = await signedInAs(company.owner.ownerEmail);
    await client.get(`/app/envelopes/${envelope.envelopeId}`);
    const first = await client.post(`/app/envelopes/${envelope.envelopeId}/remind`, { recipient_id: recipientId });
    expect(first.status).toBe(303);
    await drained(stack);
    expect(reminderMails(envelope.envelopeId, recipientId)).toHaveLength(1);
    const page = await client.get(first.headers.get('location')!);
    expect(page.body).toContain('The reminder is on its way.');
    expect(page.body).toContain('reminded Cleo Client');
    expect(page.body).toContain('was e-mailed a reminder');

    const second = await client.post(`/app/envelopes/${envelope.envelopeId}/remind`, { recipient_id: recipientId });
    expect(second.status).toBe(429);
    expect(second.body).toContain('reminded less than an hour ago');
    await drained(stack);
    expect(reminderMails(envelope.envelopeId, recipientId)).toHaveLength(1);
    const audited = await stack.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.envelopeId, envelope.envelopeId), eq(auditEvents.kind, 'recipient.reminded')));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.actorType).toBe('user');

    stack.clock.advance(HOUR + 1000);
    await client.get(`/app/envelopes/${envelope.envelopeId}`);
    expect((await client.post(`/app/envelopes/${envelope.envelopeId}/remind`, { recipient_id: recipientId })).status).toBe(303);
    await drained(stack);
    expect(reminderMails(envelope.envelopeId, recipientId)).toHaveLength(2);
  });
});
