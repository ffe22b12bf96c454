/**
 * The text rule on every field that reaches an e-mail header or one line of a page: a subject, a
 * title, a name, an address, a label refuses every control character (a line break would add a
 * header: `Hi\r\nBcc: evil@example.com`) with `422 validation_failed` naming the field; an e-mail
 * message keeps LF, CRLF and tabs and refuses the rest. Names in any script are taken as given,
 * and text stored before the rule reaches the mailer cleaned, never as a message that fails forever.
 *
 * One file although long: one text rule, applied to every field that reaches a header or a line.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelopes, recipients } from '../../src/data/schema.js';
import { sendSigningEmail } from '../../src/domain/envelopes/signing-email.js';
import { sendCompletedEmail, sendDeclinedEmail, sendDocumentReadyEmails } from '../../src/domain/signing/ceremony-emails.js';
import { DomainError } from '../../src/errors.js';
import { errorStatus } from '../../src/http/error-status.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { loadSeed } from '../../src/seed/load-seed.js';
import { runConsumer } from '../../src/queue/consumers.js';
import { admin } from '../admin/admin-support.js';
import { freshDemoSeed } from '../seed/seed-helpers.js';
import { lineBreaksAndTabs, namesOfTheWorld, notMultiLine, notSingleLine, shown } from '../support/control-characters.js';
import { addKeyHolder, createTestCompany, createTestTemplate, ndaDefinition, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let templateId: string;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 1000 });
  templateId = (await createTestTemplate(stack, company.id)).id;
});
afterAll(() => stack.close());

type Path = (string | number)[];
const dotted = (path: Path) => path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');

/** `bad` inside the value: before the @ of an address, else after its first character. */
const spoil = (value: string, bad: string) => (value.includes('@') ? value.replace('@', `${bad}@`) : `${value.slice(0, 1)}${bad}${value.slice(1)}`);

function spoiledAt<T>(value: T, path: Path, bad: string): T {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  parent[last] = spoil(String(parent[last]), bad);
  return copy as T;
}

/** 422 validation_failed whose issues all name exactly `where` (a rule may add a second issue there). */
function expectRefusedAt(answer: Answer, where: string, label: string) {
  expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(422);
  expect(answer.body.error.code, label).toBe('validation_failed');
  expect([...new Set(answer.body.error.details.issues.map((issue: { path: string }) => issue.path))], label).toEqual([where]);
}

/** Every field with every character: 422 naming exactly that field. */
async function refusesEach(fields: Path[], characters: string[], attempt: (path: Path, bad: string) => Promise<Answer>, prefix = '') {
  for (const path of fields) {
    const where = prefix ? `${prefix}.${dotted(path)}` : dotted(path);
    for (const bad of characters) expectRefusedAt(await attempt(path, bad), where, `${where} with ${shown(bad)}`);
  }
}

const sendBody = () => ({
  template_id: templateId,
  recipients: [
    { role: 'Client', name: 'Cleo Client', email: `cleo-${unique()}@example.test`, contact_number: '+1 555 0100' },
    { role: 'Witness', name: 'Walt Witness', email: `walt-${unique()}@example.test` },
  ],
  title: 'Mutual NDA',
  email_subject: 'Please sign',
  email_message: 'Here it is.',
});

describe('single-line fields refuse every control character with 422 naming the field', () => {
  it('POST /v1/envelopes/from-template: title, subject, sender, and each recipient’s name, e-mail and number', async () => {
    const fields: Path[] = [
      ['title'],
      ['email_subject'],
      ['sender_email'],
      ['recipients', 0, 'name'],
      ['recipients', 0, 'email'],
      ['recipients', 0, 'contact_number'],
    ];
    const before = await envelopeCount();
    for (const field of fields) {
      // A key of its own per field: the tries are more than one key's send limit.
      const sender = await addKeyHolder(stack, company.id);
      const body = { ...sendBody(), sender_email: sender.ownerEmail };
      await refusesEach([field], notSingleLine, (path, bad) =>
        call(stack, 'POST', '/v1/envelopes/from-template', { token: sender.token, body: spoiledAt(body, path, bad) }),
      );
    }
    expect(await envelopeCount()).toBe(before);
  });

  it('POST /v1/contacts: name, e-mail and number', async () => {
    await refusesEach([['name'], ['email'], ['contact_number']], notSingleLine, (path, bad) =>
      call(stack, 'POST', '/v1/contacts', {
        token: company.owner.token,
        body: spoiledAt({ name: 'Bob Buyer', email: `bob-${unique()}@example.test`, contact_number: '+1 555 0100' }, path, bad),
      }),
    );
  });

  it('POST /v1/webhooks: the URL (a URL parser would drop a tab or line break unseen) and the description', async () => {
    await refusesEach([['url'], ['description']], notSingleLine, (path, bad) =>
      call(stack, 'POST', '/v1/webhooks', {
        token: company.owner.token,
        body: spoiledAt({ url: `https://hooks.example.test/${unique()}`, events: ['envelope.sent'], description: 'CRM sync' }, path, bad),
      }),
    );
  });

  it('the admin API: company name, user name and e-mail, key owner and name', async () => {
    await refusesEach([['name']], notSingleLine, (path, bad) =>
      admin(stack, 'POST', '/admin/v1/companies', spoiledAt({ name: `Acme ${unique()}`, api_signature_requests_per_period: 5 }, path, bad)),
    );
    await refusesEach([['name']], notSingleLine, (path, bad) =>
      admin(stack, 'PUT', `/admin/v1/companies/${company.id}/users/pat-${unique()}@example.test`, spoiledAt({ name: 'Pat Doe', role: 'member' }, path, bad)),
    );
    for (const bad of notSingleLine) {
      const address = encodeURIComponent(`pat-${unique()}${bad}@example.test`);
      expectRefusedAt(
        await admin(stack, 'PUT', `/admin/v1/companies/${company.id}/users/${address}`, { name: 'Pat Doe', role: 'member' }),
        'email',
        `path e-mail with ${shown(bad)}`,
      );
    }
    await refusesEach([['owner'], ['name']], notSingleLine, (path, bad) =>
      admin(
        stack,
        'POST',
        `/admin/v1/companies/${company.id}/api-keys`,
        spoiledAt({ owner: company.owner.ownerEmail, scopes: ['templates:read'], name: 'CRM' }, path, bad),
      ),
    );
  });

  it('POST /admin/v1/companies/{companyId}/templates: template name, subject, role names, locked recipient, field role and label', async () => {
    const definition = {
      ...ndaDefinition(),
      fields: [{ role: 'Client', type: 'text', label: 'Company', page: 1, x: 72, y: 200, width: 200, height: 20, required: false }],
    };
    const fields: Path[] = [
      ['name'],
      ['email_subject'],
      ['roles', 1, 'name'],
      ['roles', 2, 'recipient', 'name'],
      ['roles', 2, 'recipient', 'email'],
      ['fields', 0, 'role'],
      ['fields', 0, 'label'],
    ];
    await refusesEach(fields, notSingleLine, (path, bad) => importTemplate(spoiledAt(definition, path, bad)), 'template');
  });

  it('the seed file: every name, address, number, key name and template text, before anything is written', async () => {
    const seed = freshDemoSeed();
    const [company] = seed.companies;
    company!.api_keys![0]!.name = 'CRM';
    const fields: Path[] = [
      ['companies', 0, 'name'],
      ['companies', 0, 'users', 1, 'name'],
      ['companies', 0, 'users', 1, 'email'],
      ['companies', 0, 'api_keys', 0, 'owner'],
      ['companies', 0, 'api_keys', 0, 'name'],
      ['companies', 0, 'contacts', 0, 'name'],
      ['companies', 0, 'contacts', 0, 'email'],
      ['companies', 0, 'contacts', 0, 'contact_number'],
      ['companies', 0, 'templates', 0, 'name'],
      ['companies', 0, 'templates', 0, 'email_subject'],
      ['companies', 0, 'templates', 0, 'roles', 2, 'recipient', 'name'],
      ['companies', 0, 'templates', 1, 'document', 'generate', 'title'],
    ];
    await refusesEach(fields, notSingleLine, (path, bad) => seedAnswer(spoiledAt(seed, path, bad)));
    await refusesEach([['companies', 0, 'brand', 'default_email_message']], notMultiLine, (path, bad) => seedAnswer(spoiledAt(seed, path, bad)));
    const [row] = await stack.services.database.db.select({ id: envelopes.id }).from(envelopes).where(eq(envelopes.companyId, company!.id!));
    expect(row).toBeUndefined();
  });
});

describe('multi-line fields keep line breaks and tabs and refuse the other control characters', () => {
  it('the e-mail message of a send', async () => {
    const sender = await addKeyHolder(stack, company.id);
    await refusesEach([['email_message']], notMultiLine, (path, bad) =>
      call(stack, 'POST', '/v1/envelopes/from-template', { token: sender.token, body: spoiledAt(sendBody(), path, bad) }),
    );
    for (const kept of lineBreaksAndTabs) {
      const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
        token: sender.token,
        body: { ...sendBody(), email_message: `Dear Cleo,${kept}please sign.` },
      });
      expect(answer.status, `${shown(kept)}: ${JSON.stringify(answer.body)}`).toBe(201);
    }
  });

  it('the brand’s default message and a template’s message', async () => {
    await refusesEach([['brand', 'default_email_message']], notMultiLine, (path, bad) =>
      admin(
        stack,
        'POST',
        '/admin/v1/companies',
        spoiledAt({ name: `Acme ${unique()}`, api_signature_requests_per_period: 5, brand: { default_email_message: 'Please sign.' } }, path, bad),
      ),
    );
    await refusesEach(
      [['email_message']],
      notMultiLine,
      (path, bad) => importTemplate(spoiledAt({ ...ndaDefinition(), email_message: 'Please sign.' }, path, bad)),
      'template',
    );
    const created = await admin(stack, 'POST', '/admin/v1/companies', {
      name: `Acme ${unique()}`,
      api_signature_requests_per_period: 5,
      brand: { default_email_message: 'Dear signer,\r\n\tplease sign.\nThanks' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.brand.default_email_message).toBe('Dear signer,\r\n\tplease sign.\nThanks');
  });
});

describe('names in any script are taken and sent as given', () => {
  it('a send whose recipients, title and subject are in other scripts reaches the mailbox unchanged, its message with its tab', async () => {
    const [first, second] = namesOfTheWorld;
    const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
      token: company.owner.token,
      body: {
        ...sendBody(),
        recipients: [
          { role: 'Client', name: first, email: `lukasz-${unique()}@example.test` },
          { role: 'Witness', name: second, email: `li-${unique()}@example.test` },
        ],
        title: 'اتفاقية عدم الإفصاح',
        email_subject: `${second}, 请签署 — ${namesOfTheWorld[2]}`,
        email_message: 'Columns:\tleft\tright\r\nThanks.',
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.recipients.map((recipient: { name: string }) => recipient.name)).toEqual([first, second]);
    const mails = () => stack.services.mailbox.list().filter((mail) => mail.tags?.envelope_id === answer.body.envelope_id);
    // Sequential: only the first signer is asked now.
    await vi.waitFor(() => expect(mails()).toHaveLength(1));
    expect(mails()[0]).toMatchObject({ to: { name: first }, subject: `${second}, 请签署 — ${namesOfTheWorld[2]}` });
    expect(mails()[0]!.text).toContain('"اتفاقية عدم الإفصاح"');
    expect(mails()[0]!.text).toContain('Columns:\tleft\tright\nThanks.');
  });

  it('contacts, users and companies with such names', async () => {
    for (const name of namesOfTheWorld) {
      const created = await admin(stack, 'POST', '/admin/v1/companies', { name: `${name} ${unique()}`, api_signature_requests_per_period: 5 });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.name.startsWith(name)).toBe(true);
      const contact = await call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body: { name, email: `c-${unique()}@example.test` } });
      expect(contact.status, JSON.stringify(contact.body)).toBe(201);
      expect(contact.body.name).toBe(name);
      const user = await admin(stack, 'PUT', `/admin/v1/companies/${company.id}/users/u-${unique()}@example.test`, { name, role: 'member' });
      expect(user.status, JSON.stringify(user.body)).toBe(201);
      expect(user.body.name).toBe(name);
    }
  });
});

describe('text stored before the rule', () => {
  it('reaches the mailer made single-line: every e-mail goes out, none refused', async () => {
    const answer = await call(stack, 'POST', '/v1/envelopes/from-template', { token: company.owner.token, body: sendBody() });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const envelopeId = answer.body.envelope_id as string;
    const mails = () => stack.services.mailbox.list().filter((mail) => mail.tags?.envelope_id === envelopeId);
    await vi.waitFor(() => expect(mails()).toHaveLength(1));
    const { db } = stack.services.database;
    await db
      .update(envelopes)
      .set({ title: 'NDA\r\nBcc: evil@example.com', emailSubject: 'Hi\r\nBcc: evil@example.com', emailMessage: 'One\rtwo\u2028three\u0007' })
      .where(eq(envelopes.id, envelopeId));
    await db.update(recipients).set({ name: 'Cleo\nBcc: evil@example.com' }).where(eq(recipients.envelopeId, envelopeId));
    const [client] = await db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId)).orderBy(recipients.order);

    await runConsumer(stack.services, sendSigningEmail, { envelope_id: envelopeId, recipient_id: client!.id, reminder: true, round: 1 });
    const reminder = mails()[0]!;
    expect(reminder).toMatchObject({ to: { name: 'Cleo Bcc: evil@example.com' }, subject: 'Reminder: Hi Bcc: evil@example.com' });
    expect(reminder.text).toContain('"NDA Bcc: evil@example.com"');
    expect(reminder.text).toContain('One\ntwo\nthree');

    await db.update(recipients).set({ status: 'declined' }).where(eq(recipients.id, client!.id));
    await db.update(envelopes).set({ status: 'declined' }).where(eq(envelopes.id, envelopeId));
    await runConsumer(stack.services, sendDeclinedEmail, { envelope_id: envelopeId });
    await db.update(envelopes).set({ status: 'completed' }).where(eq(envelopes.id, envelopeId));
    await runConsumer(stack.services, sendCompletedEmail, { envelope_id: envelopeId });
    await runConsumer(stack.services, sendDocumentReadyEmails, { envelope_id: envelopeId });
    const subjects = mails().map((mail) => mail.subject);
    expect(subjects).toEqual(
      expect.arrayContaining(['Declined: NDA Bcc: evil@example.com', 'Completed: NDA Bcc: evil@example.com', 'Signed by everyone: NDA Bcc: evil@example.com']),
    );
    expect(mails().find((mail) => mail.subject.startsWith('Declined'))!.text).toContain('Cleo Bcc: evil@example.com (');
    for (const mail of mails()) expect([mail.subject, mail.to.name].join(' '), mail.subject).not.toMatch(/[\r\n]/);
  });
});

async function envelopeCount() {
  const [row] = await stack.services.database.db.select({ n: count() }).from(envelopes).where(eq(envelopes.companyId, company.id));
  return row!.n;
}

async function importTemplate(definition: unknown): Promise<Answer> {
  const form = new FormData();
  form.set('template', JSON.stringify(definition));
  form.set('document', new Blob([(await documentBytes()) as BlobPart], { type: 'application/pdf' }), 'nda.pdf');
  return call(stack, 'POST', `/admin/v1/companies/${company.id}/templates`, { token: ADMIN_TOKEN, rawBody: form });
}

let pdf: Uint8Array | undefined;
async function documentBytes() {
  pdf ??= await generateDocument('Header-bound text', 2, nodeFontSource());
  return pdf;
}

/** A seed load as an answer, so that its refusal reads like the API's. */
async function seedAnswer(seed: unknown): Promise<Answer> {
  try {
    await loadSeed(stack.services, seed, process.cwd());
    return { status: 200, body: null, headers: new Headers() };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { status: errorStatus[err.code], body: { error: { code: err.code, details: err.details } }, headers: new Headers() };
  }
}
