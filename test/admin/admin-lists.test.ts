/**
 * The admin API's lists: companies, and a company's users, API keys (prefixes only) and envelopes,
 * paginated as the public lists are. Refusals without the admin token are in admin-access.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/data/schema.js';
import { createTestCompany, createTestTemplate } from '../support/factories.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';
import { admin, adminCompany, adminKey, adminUser, tokenFor } from './admin-support.js';
import { unique } from '../support/unique.js';
import { expectError } from '../support/expect-error.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

describe('GET /admin/v1/companies', () => {
  it('lists every company with its quota and brand message, one page at a time', async () => {
    const first = await adminCompany(stack, { brand: { default_email_message: 'Sign, please.' } });
    const second = await adminCompany(stack, { api_signature_requests_per_period: 7 });
    // Other suites may add companies meanwhile (the integration run shares one database): every
    // page is read until both are found, and each answer is checked against its own total.
    const seen: { id: string }[] = [];
    for (let page = 1; page <= 100 && !(seen.some((c) => c.id === first.id) && seen.some((c) => c.id === second.id)); page++) {
      const answer = await admin(stack, 'GET', `/admin/v1/companies?page=${page}&per_page=100`);
      expect(answer.status).toBe(200);
      const { total } = answer.body.pagination;
      expect(answer.body.pagination).toEqual({ page, per_page: 100, total, total_pages: Math.ceil(total / 100) });
      expect(total).toBeGreaterThanOrEqual(2);
      seen.push(...answer.body.data);
    }
    expect(seen).toContainEqual({ ...first, brand: { default_email_message: 'Sign, please.' } });
    expect(seen).toContainEqual(expect.objectContaining({ id: second.id, api_signature_requests_per_period: 7, brand: { default_email_message: null } }));

    const one = await admin(stack, 'GET', '/admin/v1/companies?page=2&per_page=1');
    expect(one.body.data).toHaveLength(1);
    expect(one.body.pagination).toEqual({ page: 2, per_page: 1, total: one.body.pagination.total, total_pages: one.body.pagination.total });
  });

  it.each(['page=0', 'per_page=101', 'page=abc'])('refuses %s with 422 validation_failed', async (query) => {
    expectError(await admin(stack, 'GET', `/admin/v1/companies?${query}`), 422, 'validation_failed');
  });
});

describe('GET /admin/v1/companies/{companyId}/users', () => {
  it("lists the company's users and no other company's", async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id, 'owner');
    const viewer = await adminUser(stack, company.id, 'viewer');
    const other = await adminCompany(stack);
    await adminUser(stack, other.id, 'owner');
    const answer = await admin(stack, 'GET', `/admin/v1/companies/${company.id}/users`);
    expect(answer.status).toBe(200);
    // Rows made in the same millisecond have no order between them.
    expect(answer.body.data).toHaveLength(2);
    expect(answer.body.data).toEqual(expect.arrayContaining([viewer, owner]));
    expect(answer.body.pagination).toEqual({ page: 1, per_page: 25, total: 2, total_pages: 1 });
  });

  it('answers an unknown or malformed company with 404 company_not_found', async () => {
    for (const path of ['users', 'api-keys', 'envelopes']) {
      expectError(await admin(stack, 'GET', `/admin/v1/companies/${crypto.randomUUID()}/${path}`), 404, 'company_not_found');
      expectError(await admin(stack, 'GET', `/admin/v1/companies/acme/${path}`), 404, 'company_not_found');
    }
  });
});

describe('GET /admin/v1/companies/{companyId}/api-keys', () => {
  it('lists each key by its prefix, owner, scopes and status, never the key or its hash', async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id, 'owner');
    const kept = await adminKey(stack, company.id, owner.email, ['templates:read']);
    const revoked = await adminKey(stack, company.id, owner.email);
    const rotated = await adminKey(stack, company.id, owner.email);
    expect((await admin(stack, 'POST', `/admin/v1/api-keys/${revoked.id}/revoke`)).status).toBe(200);
    const rotation = await admin(stack, 'POST', `/admin/v1/api-keys/${rotated.id}/rotate`);
    expect(rotation.status).toBe(200);

    const answer = await admin(stack, 'GET', `/admin/v1/companies/${company.id}/api-keys`);
    expect(answer.status).toBe(200);
    const seen = (id: string) => answer.body.data.find((key: { id: string }) => key.id === id);
    expect(answer.body.data).toHaveLength(3);
    const [rotatedSeen, revokedSeen, keptSeen] = [seen(rotated.id), seen(revoked.id), seen(kept.id)];
    expect(keptSeen).toEqual({
      id: kept.id,
      name: null,
      prefix: kept.prefix,
      owner: owner.email,
      scopes: ['templates:read'],
      status: 'active',
      created_at: expect.any(String),
      rotated_at: null,
      revoked_at: null,
    });
    expect(revokedSeen).toMatchObject({ status: 'revoked', revoked_at: expect.any(String), rotated_at: null });
    expect(rotatedSeen).toMatchObject({ status: 'active', prefix: rotation.body.prefix, rotated_at: expect.any(String) });

    const text = JSON.stringify(answer.body);
    const hashes = await stack.services.database.db.select({ hash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.companyId, company.id));
    for (const secret of [kept.key, revoked.key, rotated.key, rotation.body.key, ...hashes.map((row) => row.hash)]) expect(text).not.toContain(secret);
    // The prefix really is only a start: it is not enough to exchange.
    expect(kept.key.startsWith(kept.prefix)).toBe(true);
    expect(kept.prefix.length).toBeLessThan(kept.key.length / 2);
  });
});

describe('GET /admin/v1/companies/{companyId}/envelopes', () => {
  it("lists the company's envelopes a page at a time, with their status, and a voided one as voided", async () => {
    const company = await createTestCompany(stack);
    const template = await createTestTemplate(stack, company.id);
    const send = async () => {
      const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
        token: company.owner.token,
        body: {
          template_id: template.id,
          recipients: [
            { role: 'Client', name: 'Cleo', email: `cleo-${unique()}@example.test` },
            { role: 'Witness', name: 'Will', email: 'will@example.test' },
          ],
        },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { envelope_id: string; title: string };
    };
    const older = await send();
    const newer = await send();
    expect((await admin(stack, 'POST', `/admin/v1/envelopes/${older.envelope_id}/void`, { reason: 'Wrong client' })).status).toBe(200);
    const other = await createTestCompany(stack);

    const first = await admin(stack, 'GET', `/admin/v1/companies/${company.id}/envelopes?per_page=1`);
    const second = await admin(stack, 'GET', `/admin/v1/companies/${company.id}/envelopes?page=2&per_page=1`);
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, per_page: 1, total: 2, total_pages: 2 });
    // The test clock stands still: both were sent at one instant, so the two pages may hold either.
    const listed = [...first.body.data, ...second.body.data];
    expect(listed.find((envelope) => envelope.envelope_id === newer.envelope_id)).toEqual({
      envelope_id: newer.envelope_id,
      title: newer.title,
      status: 'sent',
      template_id: template.id,
      sender: { email: company.owner.ownerEmail },
      created_at: expect.any(String),
      expires_at: expect.any(String),
      completed_at: null,
      voided_at: null,
    });
    expect(listed.find((envelope) => envelope.envelope_id === older.envelope_id)).toMatchObject({ status: 'voided', voided_at: expect.any(String) });
    expect(JSON.stringify(second.body)).not.toContain('/sign/');
    expect((await admin(stack, 'GET', `/admin/v1/companies/${other.id}/envelopes`)).body).toEqual({
      data: [],
      pagination: { page: 1, per_page: 25, total: 0, total_pages: 0 },
    });
  });
});

describe('the lists are the admin token’s only', () => {
  it("refuses a company's own access token with 401", async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id, 'owner');
    const key = await adminKey(stack, company.id, owner.email);
    const token = await tokenFor(stack, key.key);
    expectError(await call(stack, 'GET', `/admin/v1/companies/${company.id}/api-keys`, { token }), 401, 'unauthorized');
  });
});
