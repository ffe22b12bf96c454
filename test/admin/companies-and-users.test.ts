import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandSettings, companies, users } from '../../src/data/schema.js';
import { call } from '../support/http.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { admin, adminCompany, adminKey, adminUser, tokenFor } from './admin-support.js';
import { unique } from '../support/unique.js';
import { expectError } from '../support/expect-error.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const companyRow = async (id: string) => (await stack.services.database.db.select().from(companies).where(eq(companies.id, id)))[0];
const brandRows = (id: string) => stack.services.database.db.select().from(brandSettings).where(eq(brandSettings.companyId, id));
const companiesNamed = (name: string) => stack.services.database.db.select().from(companies).where(eq(companies.name, name));
const usersOf = (companyId: string) => stack.services.database.db.select().from(users).where(eq(users.companyId, companyId));

/** A company as the admin API takes it, in part. */
type CompanyChange = { name?: string; api_signature_requests_per_period?: number; brand?: { default_email_message: string | null } };

describe('POST /admin/v1/companies', () => {
  it('creates a company with its quota and active brand, and answers 201 with the record', async () => {
    const name = `Acme ${unique()}`;
    const answer = await admin(stack, 'POST', '/admin/v1/companies', {
      name,
      api_signature_requests_per_period: 250,
      brand: { default_email_message: 'Please review and sign.' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name,
      api_signature_requests_per_period: 250,
      brand: { default_email_message: 'Please review and sign.' },
      created_at: stack.clock.now().toISOString(),
    });
    expect(await companyRow(answer.body.id)).toMatchObject({ name, apiSignatureRequestsPerPeriod: 250 });
    const brands = await brandRows(answer.body.id);
    expect(brands).toHaveLength(1);
    expect(brands[0]).toMatchObject({ defaultEmailMessage: 'Please review and sign.', active: true });
  });

  it('defaults the brand message to null, without and with an empty brand', async () => {
    for (const brand of [undefined, {}, { default_email_message: null }]) {
      const answer = await admin(stack, 'POST', '/admin/v1/companies', { name: `No brand ${unique()}`, api_signature_requests_per_period: 1, brand });
      expect(answer.status).toBe(201);
      expect(answer.body.brand).toEqual({ default_email_message: null });
      const brands = await brandRows(answer.body.id);
      expect(brands.map((row) => [row.defaultEmailMessage, row.active])).toEqual([[null, true]]);
    }
  });

  it('keeps a given id', async () => {
    const id = crypto.randomUUID();
    const answer = await admin(stack, 'POST', '/admin/v1/companies', { id, name: `Given ${unique()}`, api_signature_requests_per_period: 3 });
    expect(answer.status).toBe(201);
    expect(answer.body.id).toBe(id);
    expect(await companyRow(id)).toBeDefined();
  });

  it('refuses a duplicate id with 409 conflict and leaves the first company as it was', async () => {
    const first = await adminCompany(stack, { id: crypto.randomUUID(), name: `First ${unique()}` });
    const answer = await admin(stack, 'POST', '/admin/v1/companies', { id: first.id, name: 'Second', api_signature_requests_per_period: 9 });
    expectError(answer, 409, 'conflict');
    expect(answer.body.error.details).toEqual({ company_id: first.id });
    expect(await companyRow(first.id)).toMatchObject({ name: first.name, apiSignatureRequestsPerPeriod: 50 });
    expect(await brandRows(first.id)).toHaveLength(1);
  });

  it.each<[string, CompanyChange]>([
    ['name at 200 characters', { name: 'n'.repeat(200) }],
    ['quota 0', { api_signature_requests_per_period: 0 }],
    ['quota 10,000,000', { api_signature_requests_per_period: 10_000_000 }],
    ['brand message at 5,000 characters', { brand: { default_email_message: 'm'.repeat(5000) } }],
  ])('accepts %s', async (_label, change) => {
    const input: CompanyChange = { name: `Bound ${unique()}`, api_signature_requests_per_period: 7, ...change };
    const answer = await admin(stack, 'POST', '/admin/v1/companies', input);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const row = await companyRow(answer.body.id);
    expect(row).toMatchObject({ name: input.name, apiSignatureRequestsPerPeriod: input.api_signature_requests_per_period });
    expect((await brandRows(answer.body.id))[0]?.defaultEmailMessage).toBe(input.brand?.default_email_message ?? null);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['name at 201 characters', { name: 'n'.repeat(201) }, ['name']],
    ['an empty name', { name: '' }, ['name']],
    ['a blank name', { name: '   ' }, ['name']],
    ['a missing name', { name: undefined }, ['name']],
    ['quota -1', { api_signature_requests_per_period: -1 }, ['api_signature_requests_per_period']],
    ['quota 10,000,001', { api_signature_requests_per_period: 10_000_001 }, ['api_signature_requests_per_period']],
    ['a fractional quota', { api_signature_requests_per_period: 1.5 }, ['api_signature_requests_per_period']],
    ['a quota as a string', { api_signature_requests_per_period: '10' }, ['api_signature_requests_per_period']],
    ['brand message at 5,001 characters', { brand: { default_email_message: 'm'.repeat(5001) } }, ['brand.default_email_message']],
    ['a malformed id', { id: 'not-a-uuid' }, ['id']],
    ['unknown fields at both levels', { plan: 'gold', brand: { logo: 'x.png' } }, ['plan', 'brand.logo']],
  ])('refuses %s with 422 validation_failed naming the field, and stores nothing', async (_label, change, paths) => {
    const name = `Refused ${unique()}`;
    const answer = await admin(stack, 'POST', '/admin/v1/companies', { name, api_signature_requests_per_period: 7, ...change });
    expectError(answer, 422, 'validation_failed', paths);
    expect(await companiesNamed(typeof change.name === 'string' ? change.name : name)).toEqual([]);
  });

  it('refuses a body that is not JSON with 422 validation_failed', async () => {
    const answer = await call(stack, 'POST', '/admin/v1/companies', {
      token: ADMIN_TOKEN,
      rawBody: '{"name": "Broken",',
      headers: { 'content-type': 'application/json' },
    });
    expectError(answer, 422, 'validation_failed');
    expect(await companiesNamed('Broken')).toEqual([]);
  });
});

describe('PUT /admin/v1/companies/{companyId}/users/{email}', () => {
  const userPath = (companyId: string, email: string) => `/admin/v1/companies/${companyId}/users/${encodeURIComponent(email)}`;

  it('adds a user with 201, then changes it with 200, keeping one row with the same id', async () => {
    const company = await adminCompany(stack);
    const email = `ada-${unique()}@example.test`;
    const added = await admin(stack, 'PUT', userPath(company.id, email), { name: 'Ada', role: 'member' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      email,
      name: 'Ada',
      role: 'member',
      active: true,
      esign_seat: false,
      created_at: stack.clock.now().toISOString(),
    });

    stack.clock.advance(60_000);
    const changed = await admin(stack, 'PUT', userPath(company.id, email), { name: 'Ada L.', role: 'admin', active: false, esign_seat: true });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...added.body, name: 'Ada L.', role: 'admin', active: false, esign_seat: true });

    const rows = await usersOf(company.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: added.body.id, email, name: 'Ada L.', role: 'admin', active: false, esignSeat: true });
  });

  it('finds the user by e-mail without case and keeps the e-mail as first given', async () => {
    const company = await adminCompany(stack);
    const email = `Grace-${unique()}@Example.test`;
    const added = await admin(stack, 'PUT', userPath(company.id, email), { name: 'Grace', role: 'viewer' });
    const changed = await admin(stack, 'PUT', userPath(company.id, email.toUpperCase()), { name: 'Grace', role: 'owner' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: added.body.id, email, role: 'owner' });
    expect((await usersOf(company.id)).map((row) => [row.email, row.role])).toEqual([[email, 'owner']]);
  });

  it('keeps the same e-mail in two companies apart', async () => {
    const first = await adminCompany(stack);
    const second = await adminCompany(stack);
    const email = `shared-${unique()}@example.test`;
    await admin(stack, 'PUT', userPath(first.id, email), { name: 'In first', role: 'owner' });
    const other = await admin(stack, 'PUT', userPath(second.id, email), { name: 'In second', role: 'viewer' });
    expect(other.status).toBe(201);
    await admin(stack, 'PUT', userPath(second.id, email), { name: 'In second', role: 'member', active: false });
    expect((await usersOf(first.id)).map((row) => [row.name, row.role, row.active])).toEqual([['In first', 'owner', true]]);
    expect((await usersOf(second.id)).map((row) => [row.name, row.role, row.active])).toEqual([['In second', 'member', false]]);
  });

  it('answers an unknown or malformed company id with 404 company_not_found and stores no user', async () => {
    const email = `ghost-${unique()}@example.test`;
    for (const companyId of [crypto.randomUUID(), 'not-a-uuid', '1234']) {
      const answer = await admin(stack, 'PUT', userPath(companyId, email), { name: 'Ghost', role: 'owner' });
      expectError(answer, 404, 'company_not_found');
    }
    expect(await stack.services.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it.each<[string, { name: string; role: string }]>([
    ['name at 120 characters', { name: 'n'.repeat(120), role: 'viewer' }],
    ...['owner', 'admin', 'member', 'viewer'].map((role): [string, { name: string; role: string }] => [`the ${role} role`, { name: 'Roles', role }]),
  ])('accepts %s', async (_label, body) => {
    const company = await adminCompany(stack);
    const answer = await admin(stack, 'PUT', userPath(company.id, `b-${unique()}@example.test`), body);
    expect(answer.status).toBe(201);
    expect((await usersOf(company.id))[0]).toMatchObject(body);
  });

  it('accepts an e-mail of 150 characters and refuses one of 151', async () => {
    const company = await adminCompany(stack);
    const local = (length: number) => `${'e'.repeat(length - '@example.test'.length)}@example.test`;
    expect((await admin(stack, 'PUT', userPath(company.id, local(150)), { name: 'Long', role: 'viewer' })).status).toBe(201);
    expectError(await admin(stack, 'PUT', userPath(company.id, local(151)), { name: 'Longer', role: 'viewer' }), 422, 'validation_failed', ['email']);
    expect((await usersOf(company.id)).map((row) => row.email)).toEqual([local(150)]);
  });

  it.each([
    ['name at 121 characters', { name: 'n'.repeat(121), role: 'viewer' }, ['name']],
    ['a blank name', { name: ' ', role: 'viewer' }, ['name']],
    ['an unknown role', { name: 'X', role: 'superuser' }, ['role']],
    ['a missing role', { name: 'X' }, ['role']],
    ['active as a string', { name: 'X', role: 'viewer', active: 'no' }, ['active']],
    ['an unknown field', { name: 'X', role: 'viewer', password: 'secret' }, ['password']],
  ])('refuses %s with 422 validation_failed and stores no user', async (_label, body, paths) => {
    const company = await adminCompany(stack);
    expectError(await admin(stack, 'PUT', userPath(company.id, `r-${unique()}@example.test`), body), 422, 'validation_failed', paths);
    expect(await usersOf(company.id)).toEqual([]);
  });

  it('refuses a malformed e-mail in the path with 422 validation_failed', async () => {
    const company = await adminCompany(stack);
    expectError(await admin(stack, 'PUT', userPath(company.id, 'not-an-email'), { name: 'X', role: 'viewer' }), 422, 'validation_failed', ['email']);
    expect(await usersOf(company.id)).toEqual([]);
  });
});

describe("a user change applies to the user's existing access tokens on the very next request", () => {
  const contact = () => ({ name: 'Casey', email: `casey-${unique()}@example.test` });
  const userPath = (companyId: string, email: string) => `/admin/v1/companies/${companyId}/users/${encodeURIComponent(email)}`;

  async function ownerWithToken() {
    const company = await adminCompany(stack);
    const user = await adminUser(stack, company.id, 'owner');
    const key = await adminKey(stack, company.id, user.email);
    const token = await tokenFor(stack, key.key);
    expect((await call(stack, 'POST', '/v1/contacts', { token, body: contact() })).status).toBe(201);
    return { company, user, token };
  }

  it('demoting the owner to viewer denies writes at once, keeps reads, and promoting restores writes', async () => {
    const { company, user, token } = await ownerWithToken();
    expect((await admin(stack, 'PUT', userPath(company.id, user.email), { name: 'Test User', role: 'viewer' })).status).toBe(200);

    const denied = await call(stack, 'POST', '/v1/contacts', { token, body: contact() });
    expectError(denied, 403, 'permission_denied');
    expect(denied.body.error.details).toMatchObject({ required_scope: 'contacts:write', role: 'viewer' });
    expect((await call(stack, 'GET', '/v1/contacts', { token })).status).toBe(200);

    expect((await admin(stack, 'PUT', userPath(company.id, user.email), { name: 'Test User', role: 'member' })).status).toBe(200);
    expect((await call(stack, 'POST', '/v1/contacts', { token, body: contact() })).status).toBe(201);
    const listed = await call(stack, 'GET', '/v1/contacts', { token });
    expect(listed.body.pagination.total).toBe(2);
  });

  it('deactivating the owner denies every call at once, and reactivating restores them', async () => {
    const { company, user, token } = await ownerWithToken();
    expect((await admin(stack, 'PUT', userPath(company.id, user.email), { name: 'Test User', role: 'owner', active: false })).status).toBe(200);

    expectError(await call(stack, 'POST', '/v1/contacts', { token, body: contact() }), 403, 'permission_denied');
    expectError(await call(stack, 'GET', '/v1/templates', { token }), 403, 'permission_denied');
    expect((await usersOf(company.id))[0]).toMatchObject({ active: false });

    expect((await admin(stack, 'PUT', userPath(company.id, user.email), { name: 'Test User', role: 'owner' })).status).toBe(200);
    expect((await call(stack, 'GET', '/v1/templates', { token })).status).toBe(200);
  });
});
