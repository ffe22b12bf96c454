/**
 * One file although long: the templates pages share one signed-in client, one upload and one form
 * reader, and are read as one walk.
 *
 * The application's templates pages over the real stack: the list and a template's page to every
 * role; the builder without script: upload (refusals: no file, not a PDF, too large), the form's
 * adds and removes, its mistakes (422, nothing saved), and the save that makes a template the API
 * shows with its fields at their points; a viewer refused on the builder and on a forged post;
 * another company's template not found; a forged document refused.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, templates } from '../../src/data/schema.js';
import { appMessages } from '../../src/company-app/messages.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { MAX_TEMPLATE_DOCUMENT_BYTES } from '../../src/ports/document-limits.js';
import { MAX_EDIT_FORM_BYTES } from '../../functions/app/template-edit.js';
import { appClient, formTokenIn, freshEmail, signIn } from '../support/app-client.js';
import { asOperator, createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
let pdf: Uint8Array;
beforeAll(async () => {
  stack = await openStack();
  [company, other] = [await createTestCompany(stack), await createTestCompany(stack)];
  pdf = await generateDocument('Lease', 2, nodeFontSource());
});
afterAll(() => stack.close());

type Role = 'owner' | 'admin' | 'member' | 'viewer';

async function signedIn(role: Role, companyId = company.id) {
  const email = freshEmail(role);
  await putUser(asOperator(stack, companyId), { email, input: { name: `Pat ${role}`, role, active: true, esign_seat: true } });
  const client = appClient(stack);
  expect((await signIn(stack, client, email)).status).toBe(303);
  return client;
}
type Client = Awaited<ReturnType<typeof signedIn>>;

/** A multipart post of `bytes` as the upload form's PDF, from the page last shown. */
async function upload(client: Client, bytes: Uint8Array | null, name = 'lease.pdf'): Promise<Answer<string>> {
  const page = await client.get('/app/templates/new');
  const form = new FormData();
  form.append('form_token', formTokenIn(page.body));
  if (bytes) form.append('document', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), name);
  const cookie = [...client.jar].map(([key, value]) => `${key}=${value}`).join('; ');
  return call<string>(stack, 'POST', '/app/templates/new', {
    rawBody: form,
    headers: { cookie, origin: new URL(BASE_URL).origin, 'sec-fetch-site': 'same-origin', 'x-test-client-ip': '198.51.100.78' },
  });
}

const entitiesDecoded = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** What a browser would post from the page's form: its inputs, the options selected, the boxes ticked. */
function formValuesIn(page: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [tag] of page.matchAll(/<input [^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    if (!name || /type="(file|submit)"/.test(tag)) continue;
    if (/type="checkbox"/.test(tag) && !/ checked/.test(tag)) continue;
    values[name] = entitiesDecoded(/value="([^"]*)"/.exec(tag)?.[1] ?? '');
  }
  for (const [, name, options] of page.matchAll(/<select id="[^"]+" name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
    values[name!] = entitiesDecoded(/<option value="([^"]*)" selected>/.exec(options!)?.[1] ?? /<option value="([^"]*)"/.exec(options!)?.[1] ?? '');
  }
  for (const [, name, text] of page.matchAll(/<textarea id="[^"]+" name="([^"]+)"[^>]*>([\s\S]*?)<\/textarea>/g)) values[name!] = entitiesDecoded(text!);
  return values;
}

const build = (client: Client, values: Record<string, string>) => client.post('/app/templates/new/build', values);

/** A multipart post of the builder's form with `bytes` as its new PDF, from the page last shown. */
async function postWithPdf(client: Client, path: string, values: Record<string, string>, bytes: Uint8Array, name = 'new.pdf'): Promise<Answer<string>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) form.append(key, value);
  form.append('document', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), name);
  const cookie = [...client.jar].map(([key, value]) => `${key}=${value}`).join('; ');
  return call<string>(stack, 'POST', path, {
    rawBody: form,
    headers: { cookie, origin: new URL(BASE_URL).origin, 'sec-fetch-site': 'same-origin', 'x-test-client-ip': '198.51.100.78' },
  });
}

const versionOf = async (id: string) =>
  (await stack.services.database.db.select({ version: templates.version }).from(templates).where(eq(templates.id, id)))[0]?.version;

const savedId = (answer: Answer<string>) => /\/app\/templates\/([0-9a-f-]{36})\?saved=1/.exec(answer.headers.get('location') ?? '')?.[1];
const templateApi = (id: string, token = company.owner.token) => call(stack, 'GET', `/v1/templates/${id}`, { token });

describe('the templates list and a template page', () => {
  it('lists the company’s templates to every role, with roles, last change and envelopes sent; a template’s page shows its roles and fields', async () => {
    const template = await createTestTemplate(stack, company.id);
    const foreign = await createTestTemplate(stack, other.id);
    for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
      const client = await signedIn(role);
      const home = await client.get('/app');
      expect(home.body).toContain('href="/app/templates"');
      const list = await client.get('/app/templates');
      expect(list.status).toBe(200);
      expect(list.body).toContain(`href="/app/templates/${template.id}"`);
      expect(list.body).toContain('Client, Witness, Counsel');
      expect(list.body).not.toContain(foreign.id);
      expect(list.body.includes('href="/app/templates/new"')).toBe(role !== 'viewer');
      const page = await client.get(`/app/templates/${template.id}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(template.name);
      expect(page.body).toContain('Page 2, 72, 640 pt; 200 × 40 pt');
      expect(page.body).toContain('Always Carl Counsel (counsel@example.test)');
    }
  });

  it('answers another company’s template and an unknown id 404, as the same page', async () => {
    const foreign = await createTestTemplate(stack, other.id);
    const client = await signedIn('member');
    const theirs = await client.get(`/app/templates/${foreign.id}`);
    const unknown = await client.get(`/app/templates/${crypto.randomUUID()}`);
    const malformed = await client.get('/app/templates/not-an-id');
    expect([theirs.status, unknown.status, malformed.status]).toEqual([404, 404, 404]);
    expect(theirs.body).toBe(unknown.body);
    expect((await client.get(`/app/templates/${foreign.id}/document.pdf`)).status).toBe(404);
  });

  it('sends the signed-out to sign in', async () => {
    const answer = await appClient(stack).get('/app/templates');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/app');
  });
});

describe('the builder without script', () => {
  it('refuses no file and a file that is not a PDF (422) and one past the limit (413), storing nothing', async () => {
    const client = await signedIn('member');
    const none = await upload(client, null);
    expect(none.status).toBe(422);
    expect(none.body).toContain('Choose the PDF to upload.');
    const notPdf = await upload(client, new TextEncoder().encode('hello, not a PDF'), 'note.pdf');
    expect(notPdf.status).toBe(422);
    expect(notPdf.body).toContain('this file is not one');
    const tooLarge = await upload(client, new Uint8Array(MAX_TEMPLATE_DOCUMENT_BYTES + 1));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toContain('larger than 25 MiB');
  });

  it('uploads, adds a role and a field, refuses mistakes with 422, and saves a template the API shows with its fields at their points', async () => {
    const client = await signedIn('member');
    const builder = await upload(client, pdf);
    expect(builder.status).toBe(200);
    expect(builder.body).toContain('lease.pdf: 2 pages');
    expect(builder.body).toContain('data-width="612"');

    const withRole = await build(client, { ...formValuesIn(builder.body), action: 'add-role' });
    expect(withRole.status).toBe(200);
    expect(withRole.body).toContain('id="role-1-name"');
    const withField = await build(client, { ...formValuesIn(withRole.body), 'role-1-name': 'Tenant', action: 'add-field-signature' });
    expect(withField.body).toContain('id="field-0-x"');

    // Mistakes: a field off its page, a duplicate role name, an expiry past the bound: 422, nothing saved.
    const name = `Lease ${crypto.randomUUID()}`;
    const values = {
      ...formValuesIn(withField.body),
      name,
      'field-0-role': 'Tenant',
      'field-0-page': '2',
      'field-0-x': '500',
      'field-0-y': '700',
      'field-0-width': '113',
      'field-0-height': '40',
    };
    const offPage = await build(client, { ...values, action: 'save' });
    expect(offPage.status).toBe(422);
    expect(offPage.body).toContain('id="field-0-x-error"');
    const twice = await build(client, { ...values, 'field-0-x': '499', 'role-1-name': 'Signer', expiry_days: '366', action: 'save' });
    expect(twice.status).toBe(422);
    expect(twice.body).toContain('id="role-1-name-error"');
    expect(twice.body).toContain('id="expiry_days-error"');
    expect(await stack.services.database.db.select().from(templates).where(eq(templates.name, name))).toEqual([]);

    // At the page's edge exactly (612 pt wide) it fits; removing a field and adding it back keeps the form.
    const saved = await build(client, {
      ...values,
      'field-0-x': '499',
      expiry_days: '365',
      'role-1-locked': 'yes',
      'role-1-recipient_name': 'Tess Tenant',
      'role-1-recipient_email': 'tess@example.test',
      'role-1-verification': 'email_code',
      action: 'save',
    });
    expect(saved.status).toBe(303);
    const id = /\/app\/templates\/([0-9a-f-]{36})\?saved=1/.exec(saved.headers.get('location') ?? '')?.[1];
    expect(id).toBeDefined();
    const api = await templateApi(id!);
    expect(api.status).toBe(200);
    expect(api.body.name).toBe(name);
    expect(api.body.expiry_days).toBe(365);
    expect(api.body.roles.map((role: { name: string }) => role.name)).toEqual(['Signer', 'Tenant']);
    expect(api.body.roles[1]).toMatchObject({ locked: true, recipient: { name: 'Tess Tenant', email: 'tess@example.test' }, verification: 'email_code' });
    expect(api.body.fields).toEqual([
      expect.objectContaining({ role: 'Tenant', type: 'signature', page: 2, x: 499, y: 700, width: 113, height: 40, required: true }),
    ]);
    const [audit] = await stack.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.kind, 'template.imported')))
      .orderBy(auditEvents.seq);
    expect(audit).toBeDefined();
    const list = await client.get('/app/templates');
    expect(list.body).toContain('Pat member');
    const page = await client.get(`/app/templates/${id}?saved=1`);
    expect(page.body).toContain(`The template ${name} is saved.`);
  });

  it('removes a row on its button, and refuses a document the session did not upload (403)', async () => {
    const client = await signedIn('admin');
    const builder = await upload(client, pdf);
    const two = await build(client, { ...formValuesIn(builder.body), action: 'add-field' });
    const one = await build(client, { ...formValuesIn(two.body), action: 'remove-field-0' });
    expect(one.body).not.toContain('id="field-0-x"');
    const forged = await build(client, { ...formValuesIn(builder.body), document_key: 'someone-elses-key', action: 'save' });
    expect(forged.status).toBe(403);
    // Another session's signed document is not this session's.
    const second = await signedIn('admin');
    await second.get('/app/templates/new');
    expect((await build(second, { ...formValuesIn(builder.body), action: 'save' })).status).toBe(403);
  });

  it('refuses a viewer the builder, on its pages and on a forged post', async () => {
    const viewer = await signedIn('viewer');
    expect((await viewer.get('/app/templates/new')).status).toBe(403);
    expect((await upload(viewer, pdf)).status).toBe(403);
    await viewer.get('/app/templates');
    expect((await build(viewer, { name: 'Forged', action: 'save' })).status).toBe(403);
  });
});

describe('changing and archiving a template', () => {
  it('saves a change as a new version the API shows, listed on the template’s page; mistakes come back 422', async () => {
    const template = await createTestTemplate(stack, company.id);
    const client = await signedIn('member');
    const edit = await client.get(`/app/templates/${template.id}/edit`);
    expect(edit.status).toBe(200);
    expect(edit.body).toContain(`action="/app/templates/${template.id}/edit"`);
    const values = formValuesIn(edit.body);
    expect(values['field-0-y']).toBe('640');
    const wrong = await client.post(`/app/templates/${template.id}/edit`, { ...values, 'field-0-y': '760', action: 'save' });
    expect(wrong.status).toBe(422);
    const saved = await client.post(`/app/templates/${template.id}/edit`, { ...values, 'field-0-y': '600', action: 'save' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/app/templates/${template.id}?saved=1`);
    const api = await templateApi(template.id);
    expect(api.body.fields[0]).toMatchObject({ role: 'Client', page: 2, x: 72, y: 600 });
    const page = await client.get(`/app/templates/${template.id}`);
    expect(page.body).toContain('id="versions-title"');
    expect(page.body).toMatch(/<th scope="row">2<\/th>[\s\S]*<th scope="row">1<\/th>/);
  });

  it('lists a template with when it last changed, who changed it and how many envelopes were sent from it', async () => {
    const template = await createTestTemplate(stack, company.id);
    const send = () =>
      call(stack, 'POST', '/v1/envelopes/from-template', {
        token: company.owner.token,
        body: {
          template_id: template.id,
          recipients: [
            { role: 'Client', name: 'Cleo Client', email: freshEmail('cleo') },
            { role: 'Witness', name: 'Walt Witness', email: freshEmail('walt') },
          ],
        },
      });
    const client = await signedIn('member');
    /** The template's row of the list, cell by cell: name, roles, last changed, by, envelopes sent. */
    const row = async () => {
      const list = (await client.get('/app/templates')).body;
      const found = new RegExp(`<tr>\\s*<th scope="row"><a href="/app/templates/${template.id}">[\\s\\S]*?</tr>`).exec(list)?.[0] ?? '';
      return [...found.matchAll(/<(?:th|td)[^>]*>([\s\S]*?)<\/(?:th|td)>/g)].map(([, cell]) => cell!.replace(/<[^>]+>/g, ''));
    };
    const changedAt = async () => (await stack.services.database.db.select().from(templates).where(eq(templates.id, template.id)))[0]!.updatedAt;
    // Imported by the operator: no user of the company changed it, and nothing was sent from it.
    expect(await row()).toEqual([template.name, 'Client, Witness, Counsel', appMessages().date(await changedAt(), { withTime: true }), 'Not known', '0']);

    const values = formValuesIn((await client.get(`/app/templates/${template.id}/edit`)).body);
    expect((await client.post(`/app/templates/${template.id}/edit`, { ...values, 'field-0-y': '600', action: 'save' })).status).toBe(303);
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    expect(await row()).toEqual([template.name, 'Client, Witness, Counsel', appMessages().date(await changedAt(), { withTime: true }), 'Pat member', '2']);
  });

  it('archives a template from its confirmation page: it leaves the list and its page is not found', async () => {
    const template = await createTestTemplate(stack, company.id);
    const viewer = await signedIn('viewer');
    expect((await viewer.get(`/app/templates/${template.id}/archive`)).status).toBe(403);
    await viewer.get(`/app/templates/${template.id}`);
    expect((await viewer.post(`/app/templates/${template.id}/archive`)).status).toBe(403);
    expect((await templateApi(template.id)).status).toBe(200);

    const admin = await signedIn('admin');
    const confirm = await admin.get(`/app/templates/${template.id}/archive`);
    expect(confirm.status).toBe(200);
    const archived = await admin.post(`/app/templates/${template.id}/archive`);
    expect(archived.status).toBe(303);
    expect(archived.headers.get('location')).toBe('/app/templates?archived=1');
    const list = await admin.get('/app/templates?archived=1');
    expect(list.body).toContain('The template is archived.');
    expect(list.body).not.toContain(template.id);
    expect((await admin.get(`/app/templates/${template.id}`)).status).toBe(404);
    await admin.get('/app/templates');
    expect((await admin.post(`/app/templates/${template.id}/archive`)).status).toBe(404);
  });

  it('answers another company’s template 404 on its change and its archiving, changing nothing', async () => {
    const foreign = await createTestTemplate(stack, other.id);
    const client = await signedIn('owner');
    expect((await client.get(`/app/templates/${foreign.id}/edit`)).status).toBe(404);
    expect((await client.get(`/app/templates/${foreign.id}/archive`)).status).toBe(404);
    await client.get('/app/templates');
    expect((await client.post(`/app/templates/${foreign.id}/archive`)).status).toBe(404);
    const own = await createTestTemplate(stack, company.id);
    const values = formValuesIn((await client.get(`/app/templates/${own.id}/edit`)).body);
    expect((await client.post(`/app/templates/${foreign.id}/edit`, { ...values, action: 'save' })).status).toBe(404);
    // The address earlier pages posted to, the id in the form, reads the session's company alike.
    expect((await client.post('/app/templates/edit', { ...values, template_id: foreign.id, action: 'save' })).status).toBe(404);
    expect((await templateApi(foreign.id, other.owner.token)).body.fields[0]).toMatchObject({ y: 640 });
  });
});

describe('what a kind of field needs', () => {
  it('saves a dropdown with its options, one a line, and refuses one without (422)', async () => {
    const client = await signedIn('member');
    const builder = await upload(client, pdf);
    const added = await build(client, { ...formValuesIn(builder.body), action: 'add-field-dropdown' });
    const values: Record<string, string> = { ...formValuesIn(added.body), name: `Survey ${crypto.randomUUID()}` };
    expect(values['field-0-type']).toBe('dropdown');
    const without = await build(client, { ...values, action: 'save' });
    expect(without.status).toBe(422);
    expect(without.body).toContain('id="field-0-options-error"');
    const saved = await build(client, { ...values, 'field-0-options': 'Yes\r\nNo\r\n', action: 'save' });
    expect(saved.status).toBe(303);
    const id = /\/app\/templates\/([0-9a-f-]{36})/.exec(saved.headers.get('location') ?? '')![1]!;
    const [field] = (await templateApi(id)).body.fields;
    expect(field.type).toBe('dropdown');
    expect(JSON.stringify(field)).toContain('["Yes","No"]');
  });
});

describe('a radio group and a dropdown in the builder', () => {
  it('saves a radio group with an option a line, each option given a box inside the field, which the edit page shows and moves', async () => {
    const client = await signedIn('member');
    const builder = await upload(client, pdf);
    const added = await build(client, { ...formValuesIn(builder.body), action: 'add-field-radio' });
    const name = `Billing ${crypto.randomUUID()}`;
    const values: Record<string, string> = { ...formValuesIn(added.body), name, 'field-0-label': 'Billing' };
    expect(values['field-0-type']).toBe('radio');
    // One option is one too few: 422, the options input marked, nothing saved.
    const one = await build(client, { ...values, 'field-0-options': 'Monthly', action: 'save' });
    expect(one.status).toBe(422);
    expect(one.body).toContain('id="field-0-options-error"');
    expect(one.body).toContain('a radio group 2 to 20');
    // Two options the same: refused alike.
    expect((await build(client, { ...values, 'field-0-options': 'Monthly\nMonthly', action: 'save' })).status).toBe(422);
    expect(await stack.services.database.db.select().from(templates).where(eq(templates.name, name))).toEqual([]);

    const saved = await build(client, { ...values, 'field-0-options': 'Monthly\r\nYearly\r\n', action: 'save' });
    expect(saved.status).toBe(303);
    const id = savedId(saved)!;
    const [field] = (await templateApi(id)).body.fields;
    // Laid out inside the field's box (72, 72, 180 × 36): side by side from its left edge, 16 pt each.
    expect(field).toMatchObject({ type: 'radio', label: 'Billing', x: 72, y: 72, width: 180, height: 36 });
    expect(field.settings.options).toEqual([
      { value: 'Monthly', x: 72, y: 72, width: 16, height: 16 },
      { value: 'Yearly', x: 162, y: 72, width: 16, height: 16 },
    ]);

    const edit = await client.get(`/app/templates/${id}/edit`);
    expect(edit.body).toContain('Box of option 2: Yearly');
    const shown = formValuesIn(edit.body);
    expect(shown['field-0-options']).toBe('Monthly\nYearly');
    expect([shown['field-0-option-1-x'], shown['field-0-option-1-y']]).toEqual(['162', '72']);
    // An option's box past its field's box (72 + 180 = 252): 422 on that option's inputs, nothing saved.
    const outside = await client.post(`/app/templates/${id}/edit`, { ...shown, 'field-0-option-1-x': '237', action: 'save' });
    expect(outside.status).toBe(422);
    expect(outside.body).toContain('id="field-0-option-1-x-error"');
    expect(await versionOf(id)).toBe(1);
    // At its edge exactly it fits.
    const moved = await client.post(`/app/templates/${id}/edit`, { ...shown, 'field-0-option-1-x': '236', 'field-0-option-1-y': '92', action: 'save' });
    expect(moved.status).toBe(303);
    expect(await versionOf(id)).toBe(2);
    expect((await templateApi(id)).body.fields[0].settings.options[1]).toEqual({ value: 'Yearly', x: 236, y: 92, width: 16, height: 16 });
  });

  it('takes a dropdown of 50 options and a radio group of 20, and refuses 51 and 21 with the options input marked', async () => {
    const client = await signedIn('member');
    const builder = await upload(client, pdf);
    const withDropdown = await build(client, { ...formValuesIn(builder.body), action: 'add-field-dropdown' });
    const both = await build(client, { ...formValuesIn(withDropdown.body), action: 'add-field-radio' });
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `Choice ${index + 1}`).join('\n');
    const name = `Choices ${crypto.randomUUID()}`;
    const values: Record<string, string> = { ...formValuesIn(both.body), name, 'field-1-width': '400', 'field-1-y': '200' };
    const dropdownPast = await build(client, { ...values, 'field-0-options': lines(51), 'field-1-options': lines(20), action: 'save' });
    expect(dropdownPast.status).toBe(422);
    expect(dropdownPast.body).toContain('id="field-0-options-error"');
    const radioPast = await build(client, { ...values, 'field-0-options': lines(50), 'field-1-options': lines(21), action: 'save' });
    expect(radioPast.status).toBe(422);
    expect(radioPast.body).toContain('id="field-1-options-error"');
    expect(radioPast.body).not.toContain('id="field-0-options-error"');
    expect(await stack.services.database.db.select().from(templates).where(eq(templates.name, name))).toEqual([]);
    const at = await build(client, { ...values, 'field-0-options': lines(50), 'field-1-options': lines(20), action: 'save' });
    expect(at.status).toBe(303);
    const [dropdown, radio] = (await templateApi(savedId(at)!)).body.fields;
    expect(dropdown.settings.options).toHaveLength(50);
    expect(radio.settings.options).toHaveLength(20);
    expect(radio.settings.options[19]).toEqual({ value: 'Choice 20', x: 72 + 380, y: 200, width: 16, height: 16 });
  });
});

describe('replacing a template’s PDF', () => {
  it('keeps roles and fields, marks those the new pages cannot hold, and saves a version with the new document', async () => {
    const template = await createTestTemplate(stack, company.id);
    const client = await signedIn('admin');
    const edit = await client.get(`/app/templates/${template.id}/edit`);
    expect(edit.body).toContain('enctype="multipart/form-data"');
    expect(edit.body).toContain('Replace the PDF');
    const values = { ...formValuesIn(edit.body), form_token: formTokenIn(edit.body) };
    const onePage = await generateDocument('Short lease', 1, nodeFontSource());
    // Not a PDF: refused, the saved document kept in the form.
    const notPdf = await postWithPdf(
      client,
      `/app/templates/${template.id}/edit`,
      { ...values, action: 'replace-document' },
      new TextEncoder().encode('not a pdf'),
    );
    expect(notPdf.status).toBe(422);
    expect(notPdf.body).toContain('id="replace_document-error"');
    expect(notPdf.body).not.toContain('name="document_key"');

    const replaced = await postWithPdf(client, `/app/templates/${template.id}/edit`, { ...values, action: 'replace-document' }, onePage, 'short.pdf');
    expect(replaced.status).toBe(200);
    expect(replaced.body).toContain('short.pdf: 1 page');
    expect(replaced.body).toContain('name="document_key"');
    // The fields on page 2 are kept, their pages marked; the new page list offers page 1 and still shows 2.
    const kept = formValuesIn(replaced.body);
    expect([kept['field-0-page'], kept['field-1-page']]).toEqual(['2', '2']);
    expect(replaced.body).toContain('id="field-0-page-error"');
    expect(replaced.body).toContain('id="field-1-page-error"');
    expect(kept['role-0-name']).toBe('Client');
    const refused = await client.post(`/app/templates/${template.id}/edit`, { ...kept, action: 'save' });
    expect(refused.status).toBe(422);
    expect(await versionOf(template.id)).toBe(1);

    const saved = await client.post(`/app/templates/${template.id}/edit`, { ...kept, 'field-0-page': '1', 'field-1-page': '1', action: 'save' });
    expect(saved.status).toBe(303);
    const api = (await templateApi(template.id)).body;
    expect(await versionOf(template.id)).toBe(2);
    expect(api.document).toMatchObject({ file_name: 'short.pdf', page_count: 1 });
    expect(api.fields[0]).toMatchObject({ page: 1, x: 72, y: 640 });
    expect(api.roles.map((role: { name: string }) => role.name)).toEqual(['Client', 'Witness', 'Counsel']);
    const document = await client.get(`/app/templates/${template.id}/document.pdf`);
    expect(document.status).toBe(200);
  });

  it('refuses a replacement document this session did not upload (403)', async () => {
    const template = await createTestTemplate(stack, company.id);
    const client = await signedIn('admin');
    const values = formValuesIn((await client.get(`/app/templates/${template.id}/edit`)).body);
    const forged = await client.post(`/app/templates/${template.id}/edit`, {
      ...values,
      document_key: 'someone-elses-key',
      document_size: '10',
      document_sha256: 'a'.repeat(64),
      document_name: 'x.pdf',
      document_mac: 'forged',
      action: 'save',
    });
    expect(forged.status).toBe(403);
  });
});

describe('body limits on paths with parameters', () => {
  /** The form's values padded so that the urlencoded body is exactly `bytes` long. */
  function padded(values: Record<string, string>, bytes: number): Record<string, string> {
    const base = new URLSearchParams({ ...values, pad: '' }).toString().length;
    return { ...values, pad: 'x'.repeat(bytes - base) };
  }

  it('takes a change of a template up to the builder’s form with the largest PDF, and answers one byte more 413', async () => {
    const template = await createTestTemplate(stack, company.id);
    const client = await signedIn('admin');
    const edit = await client.get(`/app/templates/${template.id}/edit`);
    const values = { ...formValuesIn(edit.body), form_token: formTokenIn(edit.body), action: 'add-role' };
    const at = await client.post(`/app/templates/${template.id}/edit`, padded(values, MAX_EDIT_FORM_BYTES));
    expect(at.status).toBe(200);
    expect(at.body).toContain('id="role-3-name"');
    const past = await client.post(`/app/templates/${template.id}/edit`, padded(values, MAX_EDIT_FORM_BYTES + 1));
    expect(past.status).toBe(413);
  });

  it('keeps the forms’ own limit on a path with parameters that states none', async () => {
    const client = await signedIn('admin');
    const one = await createTestTemplate(stack, company.id);
    const confirm = await client.get(`/app/templates/${one.id}/archive`);
    const past = await client.post(`/app/templates/${one.id}/archive`, padded({ form_token: formTokenIn(confirm.body) }, 64 * 1024 + 1));
    expect(past.status).toBe(413);
    await client.get(`/app/templates/${one.id}/archive`);
    const at = await client.post(`/app/templates/${one.id}/archive`, padded({ form_token: formTokenIn(confirm.body) }, 64 * 1024));
    expect(at.status).toBe(303);
  });
});
