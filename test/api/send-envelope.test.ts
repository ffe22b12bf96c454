/**
 * POST /v1/envelopes/from-template (docs/api-reference.md, sections 2.1–2.3, 3, 4.1, 8.3, 8.4 and guarantees 9.3–9.5): the
 * answer, what the envelope inherits, every bound, the order of the checks, the sender, quota,
 * the send rate limit, Idempotency-Key, and atomicity when a dependency fails mid-send.
 *
 * One file although long: every rule of one endpoint, in the order docs/api-reference.md states them; the
 * behaviours share one stack, whose embedded database takes seconds to open, and the factories of
 * this subject.
 */
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, companies, envelopeFields, envelopes, idempotencyRecords, recipients, webhookEvents } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { quotaPeriod } from '../../src/ports/send-limits.js';
import { type Answer, call, errorCode } from '../support/http.js';
import { addKeyHolder, asOperator, createTestCompany, createTestTemplate, type TestCompany, type TestKey } from '../support/factories.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { failNextSendWrite } from '../support/failing-writes.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { drained } from '../support/drained.js';
import { expectError, issuePaths } from '../support/expect-error.js';
import { unique } from '../support/unique.js';

const SEND = '/v1/envelopes/from-template';
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

type Recipient = { role: string; name: string; email: string; contact_number?: string | null };

/** One recipient per unlocked role of the factory's NDA, with e-mails no other test uses. */
const ndaRecipients = (tag = unique()): Recipient[] => [
  { role: 'Client', name: 'Cleo Client', email: `client-${tag}@example.test` },
  { role: 'Witness', name: 'Walt Witness', email: `witness-${tag}@example.test` },
];

const send = (token: string, body: unknown, headers: Record<string, string> = {}) => call(stack, 'POST', SEND, { token, body, headers });

async function companyWithTemplate(options: { quota?: number; defaultEmailMessage?: string; template?: Partial<TemplateDefinition> } = {}) {
  const company = await createTestCompany(stack, { quota: options.quota ?? 1000, defaultEmailMessage: options.defaultEmailMessage });
  const template = await createTestTemplate(stack, company.id, options.template);
  return { company, template, body: () => ({ template_id: template.id, recipients: ndaRecipients() }) };
}

const quotaUsed = (companyId: string) => stack.services.sendLimits.used(companyId, quotaPeriod(stack.clock.now()));

/** What a send leaves in the database for a company (audit rows of the envelopes only). */
async function rowsOf(companyId: string) {
  const { db } = stack.services.database;
  const [[e], [r], [f], [a], [w], [i]] = await Promise.all([
    db.select({ n: count() }).from(envelopes).where(eq(envelopes.companyId, companyId)),
    db.select({ n: count() }).from(recipients).where(eq(recipients.companyId, companyId)),
    db.select({ n: count() }).from(envelopeFields).where(eq(envelopeFields.companyId, companyId)),
    db
      .select({ n: count() })
      .from(auditEvents)
      // What a send writes itself; the e-mails' own audit rows follow later, from the queue.
      .where(and(eq(auditEvents.companyId, companyId), like(auditEvents.kind, 'envelope.%'))),
    db.select({ n: count() }).from(webhookEvents).where(eq(webhookEvents.companyId, companyId)),
    db.select({ n: count() }).from(idempotencyRecords).where(eq(idempotencyRecords.companyId, companyId)),
  ]);
  return { envelopes: e!.n, recipients: r!.n, fields: f!.n, audit: a!.n, webhookEvents: w!.n, idempotency: i!.n };
}

const noRows = { envelopes: 0, recipients: 0, fields: 0, audit: 0, webhookEvents: 0, idempotency: 0 };

async function envelopeRow(id: string) {
  const [row] = await stack.services.database.db.select().from(envelopes).where(eq(envelopes.id, id));
  return row!;
}

const mailTo = (email: string) => stack.services.mailbox.list().filter((mail) => mail.to.email === email);

/** The queue delivers e-mails after the answer; give it time to show one that should not exist. */

/** A token for a key at the clock's current time (after the clock moved past the old one's hour). */
async function freshToken(holder: TestKey) {
  return (await exchangeApiKey(asOperator(stack), { apiKey: holder.key })).access_token;
}

describe('a successful send', () => {
  it('answers 201 with exactly the envelope of reference 2.1, links per 2.2 in signing order, the locked cc included', async () => {
    const { company, template } = await companyWithTemplate();
    const [client, witness] = ndaRecipients();
    // Supplied out of signing order and with a contact number: the answer echoes them as given.
    const supplied = [{ ...witness!, contact_number: '+44 20 7946 0000' }, client!];
    const answer = await send(company.owner.token, { template_id: template.id, recipients: supplied });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('RateLimit-Limit')).toBe('100');
    expect(answer.headers.get('RateLimit-Remaining')).toBe('99');
    expect(answer.headers.get('Idempotent-Replayed')).toBeNull();

    const link = expect.stringMatching(new RegExp(`^${BASE_URL.replace(/\./g, '\\.')}/sign/rcp_[A-Za-z0-9]+\\.[A-Za-z0-9_-]{43}$`));
    expect(answer.body).toStrictEqual({
      envelope_id: expect.stringMatching(/^env_[A-Za-z0-9]+$/),
      status: 'sent',
      title: template.name,
      sender: { email: company.owner.ownerEmail },
      recipients: [
        { role: 'Witness', name: witness!.name, email: witness!.email },
        { role: 'Client', name: client!.name, email: client!.email },
      ],
      signing_urls: [
        { recipient_id: expect.any(String), name: client!.name, email: client!.email, recipient_type: 'need-to-sign', signing_url: link },
        { recipient_id: expect.any(String), name: witness!.name, email: witness!.email, recipient_type: 'need-to-sign', signing_url: link },
        { recipient_id: expect.any(String), name: 'Carl Counsel', email: 'counsel@example.test', recipient_type: 'receives-copy', signing_url: null },
      ],
      created_at: stack.clock.now().toISOString(),
    });
    expect(answer.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const entries = answer.body.signing_urls as { recipient_id: string; signing_url: string | null }[];
    expect(new Set(entries.map((entry) => entry.recipient_id)).size).toBe(3);
    for (const entry of entries.slice(0, 2)) expect(entry.signing_url).toContain(`/sign/${entry.recipient_id}.`);
    expect(entries[0]!.signing_url).not.toBe(entries[1]!.signing_url);

    // The recipient ids of the answer are those of the stored recipients.
    const stored = await stack.services.database.db.select().from(recipients).where(eq(recipients.envelopeId, answer.body.envelope_id));
    expect(stored.map((row) => row.id).sort()).toEqual(entries.map((entry) => entry.recipient_id).sort());
    expect(stored.find((row) => row.role === 'Witness')!.contactNumber).toBe('+44 20 7946 0000');
  });

  it('puts the recipients of locked roles in the envelope and the links, never in the echoed recipients', async () => {
    const { company, template } = await companyWithTemplate({
      template: {
        roles: [
          { name: 'Client', type: 'signer', order: 1, locked: false },
          { name: 'Notary', type: 'signer', order: 2, locked: true, recipient: { name: 'Nora Notary', email: 'notary@example.test' } },
          { name: 'Counsel', type: 'cc', order: 3, locked: true, recipient: { name: 'Carl Counsel', email: 'counsel@example.test' } },
        ],
        fields: [
          { role: 'Client', type: 'signature', page: 1, x: 72, y: 600, width: 200, height: 40, required: true },
          { role: 'Notary', type: 'initials', label: 'Notary initials', page: 2, x: 300, y: 700, width: 60, height: 30, required: false },
        ],
      },
    });
    const client = { role: 'Client', name: 'Cleo Client', email: `client-${unique()}@example.test` };
    const answer = await send(company.owner.token, { template_id: template.id, recipients: [client] });
    expect(answer.status).toBe(201);
    expect(answer.body.recipients).toEqual([client]);
    expect(
      answer.body.signing_urls.map((entry: { name: string; recipient_type: string; signing_url: string | null }) => [
        entry.name,
        entry.recipient_type,
        entry.signing_url !== null,
      ]),
    ).toEqual([
      ['Cleo Client', 'need-to-sign', true],
      ['Nora Notary', 'need-to-sign', true],
      ['Carl Counsel', 'receives-copy', false],
    ]);

    const { db } = stack.services.database;
    const people = await db.select().from(recipients).where(eq(recipients.envelopeId, answer.body.envelope_id));
    expect(people.map(({ role, type, order, name, email, status }) => ({ role, type, order, name, email, status })).sort((a, b) => a.order - b.order)).toEqual([
      { role: 'Client', type: 'signer', order: 1, name: 'Cleo Client', email: client.email, status: 'sent' },
      { role: 'Notary', type: 'signer', order: 2, name: 'Nora Notary', email: 'notary@example.test', status: 'sent' },
      { role: 'Counsel', type: 'cc', order: 3, name: 'Carl Counsel', email: 'counsel@example.test', status: 'sent' },
    ]);
    // The field layout is copied onto the envelope, each field bound to the recipient of its role.
    const fields = await db.select().from(envelopeFields).where(eq(envelopeFields.envelopeId, answer.body.envelope_id));
    const roleOf = new Map(people.map((person) => [person.id, person.role]));
    expect(
      fields
        .map(({ recipientId, type, label, page, x, y, width, height, required, value }) => ({
          role: roleOf.get(recipientId),
          type,
          label,
          page,
          x,
          y,
          width,
          height,
          required,
          value,
        }))
        .sort((a, b) => a.page - b.page),
    ).toEqual([
      { role: 'Client', type: 'signature', label: null, page: 1, x: 72, y: 600, width: 200, height: 40, required: true, value: null },
      { role: 'Notary', type: 'initials', label: 'Notary initials', page: 2, x: 300, y: 700, width: 60, height: 30, required: false, value: null },
    ]);
  });
});

describe('what the envelope inherits (reference 4.1 rule 3)', () => {
  it('takes title, subject and message from the request when given', async () => {
    const { company, template } = await companyWithTemplate({ template: { email_message: 'Template message.' } });
    const people = ndaRecipients();
    const answer = await send(company.owner.token, {
      template_id: template.id,
      recipients: people,
      title: 'Lease 2027',
      email_subject: 'Your lease is ready',
      email_message: 'Request message: sign by Friday.',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.title).toBe('Lease 2027');
    const row = await envelopeRow(answer.body.envelope_id);
    expect(row).toMatchObject({ title: 'Lease 2027', emailSubject: 'Your lease is ready', emailMessage: 'Request message: sign by Friday.' });
    await vi.waitFor(() => expect(mailTo(people[0]!.email)).toHaveLength(1));
    const [mail] = mailTo(people[0]!.email);
    expect(mail!.subject).toBe('Your lease is ready');
    expect(mail!.text).toContain('Request message: sign by Friday.');
    expect(mail!.text).toContain('Lease 2027');
    expect(mail!.text).not.toContain('Template message.');
  });

  it('takes them from the template otherwise', async () => {
    const { company, template } = await companyWithTemplate({ template: { email_subject: 'Template subject', email_message: 'Template message.' } });
    const people = ndaRecipients();
    const answer = await send(company.owner.token, { template_id: template.id, recipients: people });
    expect(answer.status).toBe(201);
    const row = await envelopeRow(answer.body.envelope_id);
    expect(row).toMatchObject({ title: template.name, emailSubject: 'Template subject', emailMessage: 'Template message.' });
    await vi.waitFor(() => expect(mailTo(people[0]!.email)).toHaveLength(1));
    const [mail] = mailTo(people[0]!.email);
    expect(mail!.subject).toBe('Template subject');
    expect(mail!.text).toContain('Template message.');
    expect(mail!.text).not.toContain('Brand message');
  });

  it('takes the message from the active brand setting when the template has none', async () => {
    const { company, template } = await companyWithTemplate({
      defaultEmailMessage: 'Brand message: thank you for signing.',
      template: { email_message: null },
    });
    const people = ndaRecipients();
    const answer = await send(company.owner.token, { template_id: template.id, recipients: people });
    expect(answer.status).toBe(201);
    expect((await envelopeRow(answer.body.envelope_id)).emailMessage).toBe('Brand message: thank you for signing.');
    await vi.waitFor(() => expect(mailTo(people[0]!.email)).toHaveLength(1));
    expect(mailTo(people[0]!.email)[0]!.text).toContain('Brand message: thank you for signing.');
  });

  it('copies expiry, reminders, signing order and link sharing from the template', async () => {
    const { company, template } = await companyWithTemplate({
      template: { expiry_days: 7, reminders: { first_after_days: 1, every_days: 2 }, signing_order: 'parallel', share_signing_links: false },
    });
    const answer = await send(company.owner.token, { template_id: template.id, recipients: ndaRecipients() });
    expect(answer.status).toBe(201);
    expect(answer.body.signing_urls).toBeNull();
    const row = await envelopeRow(answer.body.envelope_id);
    expect(row).toMatchObject({
      status: 'sent',
      companyId: company.id,
      templateId: template.id,
      senderEmail: company.owner.ownerEmail,
      signingOrder: 'parallel',
      shareSigningLinks: false,
      reminders: { first_after_days: 1, every_days: 2 },
    });
    expect(row.createdAt.toISOString()).toBe(answer.body.created_at);
    expect(row.expiresAt!.getTime()).toBe(new Date(answer.body.created_at).getTime() + 7 * DAY);
  });

  it('keeps no expiry and no reminders when the template has none', async () => {
    const { company, template } = await companyWithTemplate({ template: { expiry_days: null, reminders: null } });
    const answer = await send(company.owner.token, { template_id: template.id, recipients: ndaRecipients() });
    expect(answer.status).toBe(201);
    expect(await envelopeRow(answer.body.envelope_id)).toMatchObject({ expiresAt: null, reminders: null, signingOrder: 'sequential', shareSigningLinks: true });
  });

  it('copies the field layout of the unlocked roles onto the envelope', async () => {
    const { company, body } = await companyWithTemplate();
    const answer = await send(company.owner.token, body());
    const { db } = stack.services.database;
    const people = await db.select().from(recipients).where(eq(recipients.envelopeId, answer.body.envelope_id));
    const fields = await db.select().from(envelopeFields).where(eq(envelopeFields.envelopeId, answer.body.envelope_id));
    const roleOf = new Map(people.map((person) => [person.id, person.role]));
    expect(fields.map((field) => [roleOf.get(field.recipientId), field.type, field.page, field.x, field.y, field.width, field.height]).sort()).toEqual([
      ['Client', 'signature', 2, 72, 640, 200, 40],
      ['Witness', 'signature', 2, 72, 700, 200, 40],
    ]);
  });
});

describe('bounds of reference 8.4', () => {
  let company: TestCompany;
  let holder: TestKey;
  let template: { id: string };
  const body = (overrides: Record<string, unknown> = {}) => ({ template_id: template.id, recipients: ndaRecipients(), ...overrides });
  const withRecipient = (changes: Record<string, unknown>) => {
    const [client, witness] = ndaRecipients();
    return { template_id: template.id, recipients: [{ ...client, ...changes }, witness] };
  };
  const emailOf = (length: number) => `${'a'.repeat(length - '@example.test'.length)}@example.test`;

  beforeAll(async () => {
    company = await createTestCompany(stack, { quota: 1000 });
    holder = await addKeyHolder(stack, company.id);
    template = await createTestTemplate(stack, company.id);
  });

  it.each([
    ['title at 250', () => body({ title: 't'.repeat(250) })],
    ['email_subject at 300', () => body({ email_subject: 's'.repeat(300) })],
    ['email_message at 5000', () => body({ email_message: 'm'.repeat(5000) })],
    ['a name at 120', () => withRecipient({ name: 'n'.repeat(120) })],
    ['an email at 150', () => withRecipient({ email: emailOf(150) })],
    ['a contact_number at 20', () => withRecipient({ contact_number: '1'.repeat(20) })],
  ])('accepts %s', async (_, make) => {
    const answer = await send(holder.token, make());
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });

  it.each([
    ['title at 251', () => body({ title: 't'.repeat(251) }), 'title'],
    ['email_subject at 301', () => body({ email_subject: 's'.repeat(301) }), 'email_subject'],
    ['email_message at 5001', () => body({ email_message: 'm'.repeat(5001) }), 'email_message'],
    ['a role at 26', () => withRecipient({ role: 'r'.repeat(26) }), 'recipients[0].role'],
    ['a name at 121', () => withRecipient({ name: 'n'.repeat(121) }), 'recipients[0].name'],
    ['an email at 151', () => withRecipient({ email: emailOf(151) }), 'recipients[0].email'],
    ['a contact_number at 21', () => withRecipient({ contact_number: '1'.repeat(21) }), 'recipients[0].contact_number'],
    ['a sender_email at 151', () => body({ sender_email: emailOf(151) }), 'sender_email'],
    ['no recipients', () => body({ recipients: [] }), 'recipients'],
    ['an e-mail without @', () => withRecipient({ email: 'not-an-email' }), 'recipients[0].email'],
    ['an e-mail without domain', () => withRecipient({ email: 'someone@' }), 'recipients[0].email'],
    ['an e-mail without local part', () => withRecipient({ email: '@example.test' }), 'recipients[0].email'],
    ['an e-mail with a space', () => withRecipient({ email: 'two words@example.test' }), 'recipients[0].email'],
    ['an invalid sender_email', () => body({ sender_email: 'nobody' }), 'sender_email'],
  ])('refuses %s with validation_failed at its path', async (_, make, path) => {
    const before = await rowsOf(company.id);
    const answer = await send(holder.token, make());
    expectError(answer, 422, 'validation_failed');
    expect(issuePaths(answer)).toContain(path);
    expect(await rowsOf(company.id)).toEqual(before);
  });

  it('accepts a role of 25 characters and refuses 26', async () => {
    const role = 'R'.repeat(25);
    const own = await createTestTemplate(stack, company.id, { roles: [{ name: role, type: 'signer', order: 1, locked: false }], fields: [] });
    const ok = await send(holder.token, { template_id: own.id, recipients: [{ role, name: 'Rae', email: `r-${unique()}@example.test` }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const long = await send(holder.token, { template_id: own.id, recipients: [{ role: `${role}R`, name: 'Rae', email: `r-${unique()}@example.test` }] });
    expectError(long, 422, 'validation_failed');
    expect(issuePaths(long)).toEqual(['recipients[0].role']);
  });

  it('accepts 1 and 50 recipients, refuses 51', async () => {
    const one = await createTestTemplate(stack, company.id, {
      roles: [
        { name: 'Client', type: 'signer', order: 1, locked: false },
        { name: 'Counsel', type: 'cc', order: 2, locked: true, recipient: { name: 'Carl Counsel', email: 'counsel@example.test' } },
      ],
      fields: [],
    });
    const single = await send(holder.token, { template_id: one.id, recipients: [{ role: 'Client', name: 'Cleo', email: `c-${unique()}@example.test` }] });
    expect(single.status).toBe(201);
    expect(single.body.signing_urls).toHaveLength(2);

    const roles = Array.from({ length: 50 }, (_, i) => ({ name: `Signer ${i + 1}`, type: 'signer' as const, order: i + 1, locked: false }));
    const fifty = await createTestTemplate(stack, company.id, { roles, fields: [] });
    const people = roles.map((role, i) => ({ role: role.name, name: `Person ${i + 1}`, email: `p${i + 1}-${unique()}@example.test` }));
    const full = await send(holder.token, { template_id: fifty.id, recipients: people });
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    expect(full.body.recipients).toEqual(people);
    expect(full.body.signing_urls).toHaveLength(50);

    const over = await send(holder.token, { template_id: fifty.id, recipients: [...people, { role: 'Signer 1', name: 'Extra', email: 'extra@example.test' }] });
    expectError(over, 422, 'validation_failed');
    expect(issuePaths(over)).toEqual(['recipients']);
  });
});

describe('malformed bodies', () => {
  let company: TestCompany;
  let template: { id: string };
  const valid = () => ({ template_id: template.id, recipients: ndaRecipients() });
  const withRecipient = (changes: Record<string, unknown>) => {
    const [client, witness] = ndaRecipients();
    return { ...valid(), recipients: [{ ...client, ...changes }, witness] };
  };
  const without = (field: string) => {
    const [client, witness] = ndaRecipients();
    const copy: Record<string, unknown> = { ...client };
    delete copy[field];
    return { ...valid(), recipients: [copy, witness] };
  };

  beforeAll(async () => {
    company = await createTestCompany(stack, { quota: 1000 });
    template = await createTestTemplate(stack, company.id);
  });

  it.each([
    // Missing fields.
    ['no template_id', () => ({ recipients: ndaRecipients() }), 'template_id'],
    ['no recipients', () => ({ template_id: template.id }), 'recipients'],
    ['a recipient without role', () => without('role'), 'recipients[0].role'],
    ['a recipient without name', () => without('name'), 'recipients[0].name'],
    ['a recipient without email', () => without('email'), 'recipients[0].email'],
    // Wrong types.
    ['a number as template_id', () => ({ ...valid(), template_id: 42 }), 'template_id'],
    ['a non-uuid template_id', () => ({ ...valid(), template_id: 'nda-2026' }), 'template_id'],
    ['an object as recipients', () => ({ ...valid(), recipients: { role: 'Client' } }), 'recipients'],
    ['a string as recipients', () => ({ ...valid(), recipients: 'Client' }), 'recipients'],
    ['a string as a recipient', () => ({ ...valid(), recipients: ['Client'] }), 'recipients[0]'],
    ['a number as title', () => ({ ...valid(), title: 7 }), 'title'],
    ['an array as email_subject', () => ({ ...valid(), email_subject: ['a'] }), 'email_subject'],
    ['a boolean as email_message', () => ({ ...valid(), email_message: true }), 'email_message'],
    ['a number as a name', () => withRecipient({ name: 7 }), 'recipients[0].name'],
    ['an object as a role', () => withRecipient({ role: { name: 'Client' } }), 'recipients[0].role'],
    ['a number as contact_number', () => withRecipient({ contact_number: 5551234 }), 'recipients[0].contact_number'],
    // Unknown fields.
    ['an unknown top-level field', () => ({ ...valid(), status: 'draft' }), 'status'],
    ['an unknown field in a recipient', () => withRecipient({ signing_url: 'https://evil.example' }), 'recipients[0].signing_url'],
    // Empty and blank strings.
    ['an empty template_id', () => ({ ...valid(), template_id: '' }), 'template_id'],
    ['an empty title', () => ({ ...valid(), title: '' }), 'title'],
    ['a blank title', () => ({ ...valid(), title: '   ' }), 'title'],
    ['an empty email_subject', () => ({ ...valid(), email_subject: '' }), 'email_subject'],
    ['a blank email_subject', () => ({ ...valid(), email_subject: ' \t ' }), 'email_subject'],
    ['an empty email_message', () => ({ ...valid(), email_message: '' }), 'email_message'],
    ['a blank email_message', () => ({ ...valid(), email_message: '\n\n' }), 'email_message'],
    ['an empty sender_email', () => ({ ...valid(), sender_email: '' }), 'sender_email'],
    ['an empty role', () => withRecipient({ role: '' }), 'recipients[0].role'],
    ['a blank role', () => withRecipient({ role: '   ' }), 'recipients[0].role'],
    ['an empty name', () => withRecipient({ name: '' }), 'recipients[0].name'],
    ['a blank name', () => withRecipient({ name: '  ' }), 'recipients[0].name'],
    ['an empty email', () => withRecipient({ email: '' }), 'recipients[0].email'],
    ['a blank email', () => withRecipient({ email: '   ' }), 'recipients[0].email'],
    // null where not allowed.
    ['a null template_id', () => ({ ...valid(), template_id: null }), 'template_id'],
    ['null recipients', () => ({ ...valid(), recipients: null }), 'recipients'],
    ['a null recipient', () => ({ ...valid(), recipients: [null] }), 'recipients[0]'],
    ['a null title', () => ({ ...valid(), title: null }), 'title'],
    ['a null email_subject', () => ({ ...valid(), email_subject: null }), 'email_subject'],
    ['a null email_message', () => ({ ...valid(), email_message: null }), 'email_message'],
    ['a null sender_email', () => ({ ...valid(), sender_email: null }), 'sender_email'],
    ['a null role', () => withRecipient({ role: null }), 'recipients[0].role'],
    ['a null name', () => withRecipient({ name: null }), 'recipients[0].name'],
    ['a null email', () => withRecipient({ email: null }), 'recipients[0].email'],
  ])('refuses %s with validation_failed at its path', async (_, make, path) => {
    const answer = await send(company.owner.token, make());
    expectError(answer, 422, 'validation_failed');
    expect(issuePaths(answer)).toContain(path);
  });

  it('refuses bodies that are not a JSON object, and stores nothing for any refused body', async () => {
    for (const rawBody of ['{"template_id":', '[]', 'null', '"send"', '']) {
      const answer = await call(stack, 'POST', SEND, { token: company.owner.token, rawBody, headers: { 'content-type': 'application/json' } });
      expectError(answer, 422, 'validation_failed');
    }
    expect(await rowsOf(company.id)).toEqual(noRows);
    expect(await quotaUsed(company.id)).toBe(0);
  });
});

describe('roles (reference 4.1 rules 1–2)', () => {
  let company: TestCompany;
  let template: { id: string };
  const unknownRole = (answer: Answer, paths: string[]) => {
    expectError(answer, 422, 'unknown_signer_role');
    expect(answer.body.error.details.unlocked_roles).toEqual(['Client', 'Witness']);
    expect(issuePaths(answer)).toEqual(paths);
  };

  beforeAll(async () => {
    company = await createTestCompany(stack, { quota: 1000 });
    template = await createTestTemplate(stack, company.id);
  });

  it.each([['client'], [' Client'], ['Client '], ['CLIENT'], ['Cli ent'], ['Client\t']])(
    'matches role names exactly: %j is unknown_signer_role',
    async (role) => {
      const [client, witness] = ndaRecipients();
      unknownRole(await send(company.owner.token, { template_id: template.id, recipients: [witness, { ...client, role }] }), ['recipients[1].role']);
    },
  );

  it('refuses a role of another template with unknown_signer_role', async () => {
    await createTestTemplate(stack, company.id, { roles: [{ name: 'Buyer', type: 'signer', order: 1, locked: false }], fields: [] });
    const [client, witness] = ndaRecipients();
    unknownRole(
      await send(company.owner.token, { template_id: template.id, recipients: [client, witness, { role: 'Buyer', name: 'Bo', email: 'bo@example.test' }] }),
      ['recipients[2].role'],
    );
  });

  it('refuses a locked role with unknown_signer_role', async () => {
    const answer = await send(company.owner.token, {
      template_id: template.id,
      recipients: [...ndaRecipients(), { role: 'Counsel', name: 'Someone Else', email: 'else@example.test' }],
    });
    unknownRole(answer, ['recipients[2].role']);
    expect(answer.body.error.details.issues[0].message).toMatch(/locked/);
  });

  it('lists every unknown role with its path', async () => {
    const answer = await send(company.owner.token, {
      template_id: template.id,
      recipients: [
        { role: 'client', name: 'A', email: 'a@example.test' },
        { role: 'Witness', name: 'B', email: 'b@example.test' },
        { role: 'Counsel', name: 'C', email: 'c@example.test' },
      ],
    });
    unknownRole(answer, ['recipients[0].role', 'recipients[2].role']);
  });

  it('refuses the same role twice with validation_failed at the repeat', async () => {
    const [client, witness] = ndaRecipients();
    const answer = await send(company.owner.token, { template_id: template.id, recipients: [client, witness, { ...client, email: 'twin@example.test' }] });
    expectError(answer, 422, 'validation_failed');
    expect(issuePaths(answer)).toEqual(['recipients[2].role']);
  });

  it('refuses a missing unlocked role with validation_failed naming it', async () => {
    const [client] = ndaRecipients();
    const answer = await send(company.owner.token, { template_id: template.id, recipients: [client] });
    expectError(answer, 422, 'validation_failed');
    expect(issuePaths(answer)).toEqual(['recipients']);
    expect(answer.body.error.details.issues[0].message).toContain('Witness');
    expect(JSON.stringify(answer.body.error.details)).not.toContain('Client');
  });

  it('stores nothing and takes no quota for refused roles', async () => {
    expect(await rowsOf(company.id)).toEqual(noRows);
    expect(await quotaUsed(company.id)).toBe(0);
  });
});

describe('the order of the checks', () => {
  let company: TestCompany;
  let template: { id: string };
  beforeAll(async () => {
    company = await createTestCompany(stack, { quota: 1000 });
    template = await createTestTemplate(stack, company.id);
  });
  const [client, witness] = ndaRecipients();

  it('body bounds before duplicate roles', async () => {
    const answer = await send(company.owner.token, { template_id: template.id, title: 't'.repeat(251), recipients: [client, client, witness] });
    expectError(answer, 422, 'validation_failed');
    expect(issuePaths(answer)).toEqual(['title']);
  });

  it('duplicate roles before the template', async () => {
    const answer = await send(company.owner.token, { template_id: crypto.randomUUID(), recipients: [client, client] });
    expectError(answer, 422, 'validation_failed');
    expect(issuePaths(answer)).toEqual(['recipients[1].role']);
  });

  it('the template before the roles', async () => {
    const answer = await send(company.owner.token, { template_id: crypto.randomUUID(), recipients: [{ ...client!, role: 'Nobody' }] });
    expectError(answer, 404, 'template_not_found');
  });

  it('an unknown role before a missing one', async () => {
    expectError(await send(company.owner.token, { template_id: template.id, recipients: [{ ...client!, role: 'client' }] }), 422, 'unknown_signer_role');
  });

  it('a missing role before the sender', async () => {
    const answer = await send(company.owner.token, { template_id: template.id, recipients: [client], sender_email: 'nobody@example.test' });
    expectError(answer, 422, 'validation_failed');
  });

  it('the sender before the quota', async () => {
    const broke = await companyWithTemplate({ quota: 0 });
    expectError(await send(broke.company.owner.token, { ...broke.body(), sender_email: 'nobody@example.test' }), 422, 'sender_not_found');
    expectError(await send(broke.company.owner.token, broke.body()), 402, 'quota_exceeded');
  });
});

describe('the sender', () => {
  let company: TestCompany;
  let template: { id: string };
  const body = (sender_email?: string) => ({ template_id: template.id, recipients: ndaRecipients(), ...(sender_email ? { sender_email } : {}) });
  const addUser = async (options: { active: boolean; esign_seat: boolean }, companyId = company.id) => {
    const email = `user-${unique()}@example.test`;
    const { user } = await putUser(asOperator(stack, companyId), { email, input: { name: 'Some User', role: 'member', ...options } });
    return user;
  };

  beforeAll(async () => {
    company = await createTestCompany(stack, { quota: 1000 });
    template = await createTestTemplate(stack, company.id);
  });

  it('defaults to the owner of the API key', async () => {
    const member = await addKeyHolder(stack, company.id, { role: 'member' });
    const answer = await send(member.token, body());
    expect(answer.status).toBe(201);
    expect(answer.body.sender).toEqual({ email: member.ownerEmail });
    expect((await envelopeRow(answer.body.envelope_id)).senderEmail).toBe(member.ownerEmail);
  });

  it('sends on behalf of another active user with a seat', async () => {
    const other = await addUser({ active: true, esign_seat: true });
    const answer = await send(company.owner.token, body(other.email));
    expect(answer.status).toBe(201);
    expect(answer.body.sender).toEqual({ email: other.email });
    expect(await envelopeRow(answer.body.envelope_id)).toMatchObject({ senderUserId: other.id, senderEmail: other.email });
  });

  it('refuses an inactive user, a user without a seat, another company’s user and an unknown e-mail with sender_not_found', async () => {
    const inactive = await addUser({ active: false, esign_seat: true });
    const seatless = await addUser({ active: true, esign_seat: false });
    const stranger = await createTestCompany(stack);
    for (const email of [inactive.email, seatless.email, stranger.owner.ownerEmail, `nobody-${unique()}@example.test`]) {
      const answer = await send(company.owner.token, body(email));
      expectError(answer, 422, 'sender_not_found');
      expect(JSON.stringify(answer.body)).not.toContain('/sign/');
    }
  });

  it('refuses the key owner as default sender when the owner has no seat', async () => {
    const seatless = await addKeyHolder(stack, company.id, { role: 'member', esignSeat: false });
    expectError(await send(seatless.token, body()), 422, 'sender_not_found');
    // Naming a sender with a seat works for the same key.
    expect((await send(seatless.token, body(company.owner.ownerEmail))).status).toBe(201);
  });
});

describe('templates of other companies', () => {
  it('answers a template of another company like an unknown one: 404 template_not_found', async () => {
    const { company } = await companyWithTemplate();
    const other = await companyWithTemplate();
    for (const templateId of [other.template.id, crypto.randomUUID()]) {
      const answer = await send(company.owner.token, { template_id: templateId, recipients: ndaRecipients() });
      expectError(answer, 404, 'template_not_found');
    }
    expect(await rowsOf(company.id)).toEqual(noRows);
    expect(await rowsOf(other.company.id)).toEqual(noRows);
  });
});

describe('quota (reference 8.3)', () => {
  it('refuses with 402 when none is left, storing nothing', async () => {
    const { company, body } = await companyWithTemplate({ quota: 0 });
    const before = await rowsOf(company.id);
    const answer = await send(company.owner.token, body());
    expectError(answer, 402, 'quota_exceeded');
    expect(await rowsOf(company.id)).toEqual(before);
    expect(before.envelopes).toBe(0);
  });

  it('with one left, sends once then refuses', async () => {
    const { company, body } = await companyWithTemplate({ quota: 1 });
    expect((await send(company.owner.token, body())).status).toBe(201);
    expectError(await send(company.owner.token, body()), 402, 'quota_exceeded');
    expect((await rowsOf(company.id)).envelopes).toBe(1);
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('gives exactly min(N, Q) envelopes for 50 parallel sends with 10 left', async () => {
    const { company, body } = await companyWithTemplate({ quota: 10 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(company.owner.token, body())));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    for (const answer of answers.filter((a) => a.status === 402)) expect(errorCode(answer)).toBe('quota_exceeded');
    expect((await rowsOf(company.id)).envelopes).toBe(10);
    expect(await quotaUsed(company.id)).toBe(10);
  });
});

describe('send rate limit: 100 sends in 15 minutes per key', () => {
  it('accepts exactly 100 of 120 parallel sends on one key, and refuses 20 with 429', async () => {
    const { company, body } = await companyWithTemplate({ quota: 1000 });
    const holder = await addKeyHolder(stack, company.id);
    const answers = await Promise.all(Array.from({ length: 120 }, () => send(holder.token, body())));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    for (const answer of answers.filter((a) => a.status === 429)) expect(errorCode(answer)).toBe('rate_limited');
    expect((await rowsOf(company.id)).envelopes).toBe(100);
    expect(await quotaUsed(company.id)).toBe(100);
  }, 60_000);

  it('checks the limit first, refuses the 101st send with 429 without taking quota, and allows sends again later', async () => {
    const { company, body } = await companyWithTemplate({ quota: 100 });
    const holder = await addKeyHolder(stack, company.id);
    for (let i = 1; i <= 100; i++) {
      const answer = await send(holder.token, body());
      if (answer.status !== 201) throw new Error(`send ${i} got ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (i === 100) expect(answer.headers.get('RateLimit-Remaining')).toBe('0');
    }
    // Quota spent and limit reached: the limit is checked first, so a limited send takes nothing.
    expectError(await send(holder.token, body()), 429, 'rate_limited');

    await stack.services.database.db.update(companies).set({ apiSignatureRequestsPerPeriod: 200 }).where(eq(companies.id, company.id));
    const refused = await send(holder.token, body());
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers.get('RateLimit-Limit')).toBe('100');
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
    expect(Number(refused.headers.get('RateLimit-Reset'))).toBeGreaterThan(0);
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await quotaUsed(company.id)).toBe(100);
    expect((await rowsOf(company.id)).envelopes).toBe(100);

    // The limit is per key: another key of the company still sends.
    expect((await send(company.owner.token, body())).status).toBe(201);

    stack.clock.advance(30 * MINUTE);
    try {
      const later = await send(holder.token, body());
      expect(later.status).toBe(201);
      expect(await quotaUsed(company.id)).toBe(102);
    } finally {
      stack.clock.advance(-30 * MINUTE);
    }
  });

  // Decided: the send limit and the quota are asked together (one Redis round trip), so every
  // send that passes validation counts against the key's 100, including one refused for quota.
  it('counts sends refused for quota against the send limit too', async () => {
    const { company, body } = await companyWithTemplate({ quota: 0 });
    for (let i = 1; i <= 100; i++) {
      const answer = await send(company.owner.token, body());
      if (answer.status !== 402) throw new Error(`send ${i} got ${answer.status}`);
    }
    await stack.services.database.db.update(companies).set({ apiSignatureRequestsPerPeriod: 5 }).where(eq(companies.id, company.id));
    const answer = await send(company.owner.token, body());
    expect([answer.status, answer.body.error.code]).toEqual([429, 'rate_limited']);
    expect(await quotaUsed(company.id)).toBe(0);
  });
});

describe('Idempotency-Key', () => {
  const keyed = (key: string) => ({ 'Idempotency-Key': key });

  it('answers a repeat of the same body with the first answer, quota taken once', async () => {
    const { company, body } = await companyWithTemplate({ quota: 10 });
    const request = body();
    const key = `order-${unique()}`;
    const first = await send(company.owner.token, request, keyed(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const again = await send(company.owner.token, request, keyed(key));
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toStrictEqual(first.body);
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(request).reverse());
    const third = await send(company.owner.token, reordered, keyed(key));
    expect(third.body.envelope_id).toBe(first.body.envelope_id);
    expect((await rowsOf(company.id)).envelopes).toBe(1);
    expect(await quotaUsed(company.id)).toBe(1);
    await vi.waitFor(() => expect(mailTo(request.recipients[0]!.email)).toHaveLength(1));
    await drained(stack);
    expect(mailTo(request.recipients[0]!.email)).toHaveLength(1);
  });

  it('refuses the same key with another body with idempotency_key_reused', async () => {
    const { company, body } = await companyWithTemplate();
    const key = `order-${unique()}`;
    const first = await send(company.owner.token, body(), keyed(key));
    expect(first.status).toBe(201);
    const answer = await send(company.owner.token, body(), keyed(key));
    expectError(answer, 422, 'idempotency_key_reused');
    expect((await rowsOf(company.id)).envelopes).toBe(1);
  });

  it('keeps keys per API key', async () => {
    const { company, body } = await companyWithTemplate();
    const holder = await addKeyHolder(stack, company.id);
    const request = body();
    const key = `order-${unique()}`;
    const first = await send(company.owner.token, request, keyed(key));
    const second = await send(holder.token, request, keyed(key));
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBeNull();
    expect(second.body.envelope_id).not.toBe(first.body.envelope_id);
    // And another company's key with the same Idempotency-Key is unaffected too.
    const other = await companyWithTemplate();
    expect((await send(other.company.owner.token, other.body(), keyed(key))).status).toBe(201);
  });

  it('records nothing for a refused send: the key stays free', async () => {
    const { company, template, body } = await companyWithTemplate();
    const key = `order-${unique()}`;
    expectError(
      await send(company.owner.token, { template_id: template.id, recipients: [{ role: 'client', name: 'A', email: 'a@example.test' }] }, keyed(key)),
      422,
      'unknown_signer_role',
    );
    const answer = await send(company.owner.token, body(), keyed(key));
    expect(answer.status).toBe(201);
    expect(answer.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('lets a key be used again after 24 hours', async () => {
    const { company, body } = await companyWithTemplate();
    const key = `order-${unique()}`;
    const request = body();
    const first = await send(company.owner.token, request, keyed(key));
    stack.clock.advance(DAY + 1000);
    try {
      const token = await freshToken(company.owner);
      const same = await send(token, request, keyed(key));
      expect(same.status, JSON.stringify(same.body)).toBe(201);
      expect(same.headers.get('Idempotent-Replayed')).toBeNull();
      expect(same.body.envelope_id).not.toBe(first.body.envelope_id);
      // The new answer is the one remembered now.
      expectError(await send(token, body(), keyed(key)), 422, 'idempotency_key_reused');
    } finally {
      stack.clock.advance(-(DAY + 1000));
    }
  });

  // A record is expired at exactly 24 hours, and the one written for the new send replaces it at
  // that same boundary: the key is free again, not stuck between two rules.
  it('lets a key be used again at exactly 24 hours', async () => {
    const { company, body } = await companyWithTemplate();
    const key = `order-${unique()}`;
    await send(company.owner.token, body(), keyed(key));
    stack.clock.advance(DAY);
    try {
      const answer = await send(await freshToken(company.owner), body(), keyed(key));
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    } finally {
      stack.clock.advance(-DAY);
    }
  });

  it('gives two identical parallel sends one envelope, quota taken once', async () => {
    const { company, body } = await companyWithTemplate({ quota: 10 });
    const request = body();
    const key = `order-${unique()}`;
    const [a, b] = await Promise.all([send(company.owner.token, request, keyed(key)), send(company.owner.token, request, keyed(key))]);
    expect([a!.status, b!.status]).toEqual([201, 201]);
    expect(a!.body.envelope_id).toBe(b!.body.envelope_id);
    expect(a!.body).toStrictEqual(b!.body);
    expect([a!.headers.get('Idempotent-Replayed'), b!.headers.get('Idempotent-Replayed')].filter(Boolean)).toEqual(['true']);
    expect((await rowsOf(company.id)).envelopes).toBe(1);
    expect(await quotaUsed(company.id)).toBe(1);
    await vi.waitFor(() => expect(mailTo(request.recipients[0]!.email)).toHaveLength(1));
    await drained(stack);
    expect(mailTo(request.recipients[0]!.email)).toHaveLength(1);
  });

  it('takes keys of 1 to 255 printable characters without spaces', async () => {
    const { company, body } = await companyWithTemplate();
    const longest = `k${unique()}`.padEnd(255, 'x');
    expect((await send(company.owner.token, body(), keyed(longest))).status).toBe(201);
    for (const bad of [`k${unique()}`.padEnd(256, 'x'), 'has space', 'tab\tkey', 'ümlaut']) {
      const answer = await send(company.owner.token, body(), keyed(bad));
      expectError(answer, 422, 'validation_failed');
      expect(issuePaths(answer)).toEqual(['idempotency-key']);
    }
    expect((await rowsOf(company.id)).envelopes).toBe(1);
  });
});

describe('atomic send when a dependency fails', () => {
  const { expectLogged } = expectErrorLogs();
  type Failure = 'database write' | 'send limits';

  /** Makes one dependency fail for the next send only; the app reads services per request. */
  function failOnce(failure: Failure) {
    const { services } = stack;
    switch (failure) {
      case 'database write':
        // Fails after every write of the send has run, so the rollback itself is tested.
        return failNextSendWrite(services.database, 'could not write to disk');
      case 'send limits':
        return vi.spyOn(services.sendLimits, 'admit').mockRejectedValueOnce(new Error('redis timeout'));
    }
  }

  async function failedSend(failure: Failure, headers: Record<string, string> = {}) {
    const setup = await companyWithTemplate({ quota: 5 });
    const request = setup.body();
    expectLogged(failure === 'database write' ? /^send failed Error: could not write to disk/ : /^send failed Error: redis timeout/);
    const spy = failOnce(failure);
    let answer: Answer;
    try {
      answer = await send(setup.company.owner.token, request, headers);
    } finally {
      spy.mockRestore();
    }
    return { ...setup, request, answer };
  }

  it.each<[Failure]>([['database write'], ['send limits']])(
    'a %s failure answers 503 and leaves nothing: no rows, no e-mail, no quota, and the next send works',
    async (failure) => {
      const { company, body, request, answer } = await failedSend(failure);
      expectError(answer, 503, 'service_unavailable');
      expect(answer.headers.get('Idempotent-Replayed')).toBeNull();
      expect(await rowsOf(company.id)).toEqual(noRows);
      expect(await quotaUsed(company.id)).toBe(0);
      await drained(stack);
      for (const person of request.recipients) expect(mailTo(person.email)).toEqual([]);

      const next = body();
      const retry = await send(company.owner.token, next);
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect((await rowsOf(company.id)).envelopes).toBe(1);
      await vi.waitFor(() => expect(mailTo(next.recipients[0]!.email)).toHaveLength(1));
    },
  );

  it('a database write failure with an Idempotency-Key leaves the key free', async () => {
    const key = `order-${unique()}`;
    const { company, request, answer } = await failedSend('database write', { 'Idempotency-Key': key });
    expect(answer.status).toBe(503);
    const retry = await send(company.owner.token, request, { 'Idempotency-Key': key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await envelopeRow(retry.body.envelope_id)).toBeDefined();
    expect(await quotaUsed(company.id)).toBe(1);
  });
});

describe('signing links stay secret (reference 9.3)', () => {
  it('never puts a signing URL in webhook event payloads or audit data', async () => {
    const { company, body } = await companyWithTemplate();
    const answer = await send(company.owner.token, body(), { 'Idempotency-Key': `order-${unique()}` });
    expect(answer.status).toBe(201);
    const urls = (answer.body.signing_urls as { signing_url: string | null }[]).map((entry) => entry.signing_url).filter((url): url is string => !!url);
    expect(urls).toHaveLength(2);
    const { db } = stack.services.database;
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.companyId, company.id));
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.companyId, company.id));
    const stored = await db.select().from(idempotencyRecords).where(eq(idempotencyRecords.companyId, company.id));
    expect(events.map((event) => event.kind)).toEqual(['envelope.sent']);
    expect(audit.map((event) => event.kind)).toContain('envelope.sent');
    const macs = urls.map((url) => url.split('.').pop()!);
    for (const text of [JSON.stringify(events), JSON.stringify(audit), JSON.stringify(stored)]) {
      expect(text).not.toContain('/sign/');
      for (const mac of macs) expect(text).not.toContain(mac);
    }
    // The event still names every recipient, so integrators can follow them.
    expect(events[0]!.payload).toMatchObject({ envelope: { envelope_id: answer.body.envelope_id, status: 'sent' } });
  });

  it('stores no link on recipient rows', async () => {
    const { company, body } = await companyWithTemplate();
    const answer = await send(company.owner.token, body());
    const rows = await stack.services.database.db
      .select()
      .from(recipients)
      .where(and(eq(recipients.envelopeId, answer.body.envelope_id), eq(recipients.companyId, company.id)));
    expect(rows).toHaveLength(3);
    expect(JSON.stringify(rows)).not.toContain('/sign/');
  });
});
