import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_PER_COMPANY } from '../../src/domain/contacts/create-contact.js';
import { call, errorCode } from '../support/http.js';
import { addKeyHolder, createTestCompany, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

let n = 0;
const newContact = () => ({ name: 'Bob Buyer', email: `bob${++n}@example.test`, contact_number: '+1 555 0100' });

describe('POST /v1/contacts', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
  });
  const create = (body: unknown, token = company.owner.token) => call(stack, 'POST', '/v1/contacts', { token, body });

  it('creates a contact and answers 201 with the record', async () => {
    const input = newContact();
    const answer = await create(input);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.any(String), ...input, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const list = await call(stack, 'GET', '/v1/contacts', { token: company.owner.token });
    expect(list.body.data).toContainEqual(answer.body);
  });

  it('takes contact_number as optional and null', async () => {
    const { contact_number: _, ...withoutNumber } = newContact();
    expect((await create(withoutNumber)).body.contact_number).toBeNull();
    expect((await create({ ...newContact(), contact_number: null })).status).toBe(201);
  });

  it('refuses a second contact with the same e-mail, whatever its case, with 409 contact_exists', async () => {
    const input = newContact();
    expect((await create(input)).status).toBe(201);
    for (const email of [input.email, input.email.toUpperCase()]) {
      const answer = await create({ ...input, email });
      expect(answer.status).toBe(409);
      expect(errorCode(answer)).toBe('contact_exists');
    }
    // Another company may hold the same address.
    const other = await createTestCompany(stack);
    expect((await create(input, other.owner.token)).status).toBe(201);
  });

  it('keeps limits exactly: name 120, email 150, contact_number 20', async () => {
    const local = (length: number) => `${'a'.repeat(length - '@example.test'.length)}@example.test`;
    expect((await create({ ...newContact(), name: 'n'.repeat(120) })).status).toBe(201);
    expect((await create({ ...newContact(), email: local(150) })).status).toBe(201);
    expect((await create({ ...newContact(), contact_number: '1'.repeat(20) })).status).toBe(201);
    for (const [field, body] of [
      ['name', { ...newContact(), name: 'n'.repeat(121) }],
      ['email', { ...newContact(), email: local(151) }],
      ['contact_number', { ...newContact(), contact_number: '1'.repeat(21) }],
    ] as const) {
      const answer = await create(body);
      expect(answer.status, field).toBe(422);
      expect(errorCode(answer)).toBe('validation_failed');
      expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
  });

  it.each([
    ['an invalid e-mail', { name: 'A', email: 'not-an-email' }, 'email'],
    ['an empty name', { name: '', email: 'a@example.test' }, 'name'],
    ['a blank name', { name: '   ', email: 'a@example.test' }, 'name'],
    ['a missing e-mail', { name: 'A' }, 'email'],
    ['a number as name', { name: 7, email: 'a@example.test' }, 'name'],
    ['an unknown field', { name: 'A', email: 'a@example.test', company: 'x' }, 'company'],
  ])('refuses %s with validation_failed at its path', async (_, body, path) => {
    const answer = await create(body);
    expect(answer.status).toBe(422);
    expect(errorCode(answer)).toBe('validation_failed');
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  });

  it('stores nothing for a refused contact', async () => {
    const other = await createTestCompany(stack);
    await create({ name: '', email: 'nobody@example.test' }, other.owner.token);
    const list = await call(stack, 'GET', '/v1/contacts', { token: other.owner.token });
    expect(list.body.pagination.total).toBe(0);
  });

  it('lets a member create contacts', async () => {
    const member = await addKeyHolder(stack, company.id, { role: 'member' });
    expect((await create(newContact(), member.token)).status).toBe(201);
  });
});

describe("the bound on a company's contacts", () => {
  /** Fills the company's address book up to `held` contacts in one statement, as many creates would. */
  const fill = (companyId: string, held: number) =>
    stack.services.database.db.execute(
      sql`insert into contacts (company_id, name, email, created_at) select ${companyId}::uuid, 'Filler', 'filler' || n || '@example.test', now() from generate_series(1, ${held}) as n`,
    );
  const total = async (token: string) => (await call(stack, 'GET', '/v1/contacts?per_page=1', { token })).body.pagination.total;

  it(`takes the ${CONTACTS_PER_COMPANY}th contact and refuses the next with 422 contact_limit_reached, storing nothing`, async () => {
    const company = await createTestCompany(stack);
    await fill(company.id, CONTACTS_PER_COMPANY - 1);
    const create = (body: unknown) => call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body });
    expect((await create(newContact())).status).toBe(201);
    const refused = await create(newContact());
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual({
      code: 'contact_limit_reached',
      message: expect.any(String),
      details: { limit: CONTACTS_PER_COMPANY, contacts: CONTACTS_PER_COMPANY },
    });
    expect(await total(company.owner.token)).toBe(CONTACTS_PER_COMPANY);
    // A duplicate is still told apart from the bound.
    expect(errorCode(await create({ name: 'F', email: 'FILLER1@example.test' }))).toBe('contact_exists');
    // Another company is not held by this one's bound.
    const other = await createTestCompany(stack);
    expect((await call(stack, 'POST', '/v1/contacts', { token: other.owner.token, body: newContact() })).status).toBe(201);
  });

  it('gives exactly one 201 to creates made at once for the last place', async () => {
    const company = await createTestCompany(stack);
    await fill(company.id, CONTACTS_PER_COMPANY - 1);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body: newContact() })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    expect(await total(company.owner.token)).toBe(CONTACTS_PER_COMPANY);
  });
});

describe('GET /v1/contacts', () => {
  it('lists only the company contacts, newest first, paginated', async () => {
    const company = await createTestCompany(stack);
    const emails: string[] = [];
    for (let i = 0; i < 3; i++) {
      const contact = newContact();
      emails.unshift(contact.email);
      await call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body: contact });
      stack.clock.advance(1000);
    }
    const page = await call(stack, 'GET', '/v1/contacts?page=2&per_page=2', { token: company.owner.token });
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ page: 2, per_page: 2, total: 3, total_pages: 2 });
    expect(page.body.data.map((c: { email: string }) => c.email)).toEqual([emails[2]]);
    const other = await createTestCompany(stack);
    expect((await call(stack, 'GET', '/v1/contacts', { token: other.owner.token })).body.data).toEqual([]);
  });

  it('refuses page=0 and per_page=101', async () => {
    const company = await createTestCompany(stack);
    for (const query of ['page=0', 'per_page=101', 'page=abc']) {
      const answer = await call(stack, 'GET', `/v1/contacts?${query}`, { token: company.owner.token });
      expect(answer.status, query).toBe(422);
      expect(errorCode(answer)).toBe('validation_failed');
    }
  });
});
