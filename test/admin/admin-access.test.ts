import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, companies, templates, users } from '../../src/data/schema.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { createTestCompany, ndaDefinition, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { exchange } from './admin-support.js';
import { unique } from '../support/unique.js';
import { expectError } from '../support/expect-error.js';

/** Every admin route, with a request that the admin token would make succeed. */
type AdminRequest = { label: string; method: string; path: string; body?: unknown; form?: () => FormData };

function adminRequests(company: TestCompany, pdf: Uint8Array, marker: string): AdminRequest[] {
  return [
    { label: 'create company', method: 'POST', path: '/admin/v1/companies', body: { name: `Refused ${marker}`, api_signature_requests_per_period: 1 } },
    {
      label: 'put user',
      method: 'PUT',
      path: `/admin/v1/companies/${company.id}/users/refused-${marker}@example.test`,
      body: { name: 'Refused', role: 'owner' },
    },
    {
      label: 'create api key',
      method: 'POST',
      path: `/admin/v1/companies/${company.id}/api-keys`,
      body: { owner: company.owner.ownerEmail, scopes: ['templates:read'] },
    },
    { label: 'rotate api key', method: 'POST', path: `/admin/v1/api-keys/${company.owner.id}/rotate` },
    { label: 'revoke api key', method: 'POST', path: `/admin/v1/api-keys/${company.owner.id}/revoke` },
    { label: 'void envelope', method: 'POST', path: `/admin/v1/envelopes/env_${marker}/void` },
    { label: 'envelope document', method: 'GET', path: `/admin/v1/envelopes/env_${marker}/document` },
    { label: 'envelope audit', method: 'GET', path: `/admin/v1/envelopes/env_${marker}/audit` },
    {
      label: 'import template',
      method: 'POST',
      path: `/admin/v1/companies/${company.id}/templates`,
      form: () => {
        const form = new FormData();
        form.set('template', JSON.stringify(ndaDefinition()));
        form.set('document', new Blob([pdf as BlobPart], { type: 'application/pdf' }), 'nda.pdf');
        return form;
      },
    },
    { label: 'admin OpenAPI document', method: 'GET', path: '/admin/v1/openapi.json' },
    { label: 'list companies', method: 'GET', path: '/admin/v1/companies' },
    { label: 'list users', method: 'GET', path: `/admin/v1/companies/${company.id}/users` },
    { label: 'list api keys', method: 'GET', path: `/admin/v1/companies/${company.id}/api-keys` },
    { label: 'list envelopes', method: 'GET', path: `/admin/v1/companies/${company.id}/envelopes` },
    { label: 'list dead jobs', method: 'GET', path: '/admin/v1/dead-jobs' },
    { label: 'retry dead job', method: 'POST', path: `/admin/v1/dead-jobs/job_${marker}/retry` },
  ];
}

const send = (stack: TestStack, request: AdminRequest, headers: Record<string, string>) =>
  call(stack, request.method, request.path, { headers, ...(request.form ? { rawBody: request.form() } : { body: request.body }) });

/** Nothing that a refused request would have written is in the database, and the key still works. */
async function expectUntouched(stack: TestStack, company: TestCompany, marker: string) {
  const { db } = stack.services.database;
  expect(
    await db
      .select()
      .from(companies)
      .where(eq(companies.name, `Refused ${marker}`)),
  ).toEqual([]);
  expect(
    await db
      .select()
      .from(users)
      .where(eq(users.email, `refused-${marker}@example.test`)),
  ).toEqual([]);
  const keys = await db.select().from(apiKeys).where(eq(apiKeys.companyId, company.id));
  expect(keys).toHaveLength(1);
  expect(keys[0]).toMatchObject({ id: company.owner.id, version: 1, revokedAt: null, rotatedAt: null });
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(templates).where(eq(templates.companyId, company.id))) as [
    { count: number },
  ];
  expect(count).toBe(0);
  expect((await exchange(stack, company.owner.key)).status).toBe(200);
}

describe('admin API with an admin token configured', () => {
  let stack: TestStack;
  let company: TestCompany;
  let pdf: Uint8Array;
  beforeAll(async () => {
    stack = await openStack();
    company = await createTestCompany(stack);
    pdf = await generateDocument('Access', 2, nodeFontSource());
  });
  afterAll(() => stack.close());

  const refusals: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer adm_wrong_token' }],
    ['the token with one character more', { authorization: `Bearer ${ADMIN_TOKEN}x` }],
    ['the token with one character less', { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` }],
    ['the token without the Bearer scheme', { authorization: ADMIN_TOKEN }],
    ['the token as Basic credentials', { authorization: `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}` }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
  ];

  it.each(refusals)('refuses %s on every admin route with 401 unauthorized and changes nothing', async (_label, headers) => {
    const marker = unique();
    for (const request of adminRequests(company, pdf, marker)) {
      const answer = await send(stack, request, headers);
      expect(answer.status, `${request.label}: ${JSON.stringify(answer.body)}`).toBe(401);
      expectError(answer, 401, 'unauthorized');
    }
    await expectUntouched(stack, company, marker);
  });

  it("refuses a company's /v1 access token: it is no admin token", async () => {
    const marker = unique();
    for (const request of adminRequests(company, pdf, marker)) {
      const answer = await send(stack, request, { authorization: `Bearer ${company.owner.token}` });
      expect(answer.status, request.label).toBe(401);
      expectError(answer, 401, 'unauthorized');
    }
    await expectUntouched(stack, company, marker);
  });

  it('answers an unknown admin path with 401 before the token and 404 not_found after it', async () => {
    expectError(await call(stack, 'GET', '/admin/v1/nothing-here'), 401, 'unauthorized');
    expectError(await call(stack, 'GET', '/admin/v1/nothing-here', { token: ADMIN_TOKEN }), 404, 'not_found');
  });

  it('serves the admin OpenAPI document to the admin token, listing every admin operation', async () => {
    const answer = await call(stack, 'GET', '/admin/v1/openapi.json', { token: ADMIN_TOKEN });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.paths).sort()).toEqual([
      '/admin/v1/api-keys/{id}/revoke',
      '/admin/v1/api-keys/{id}/rotate',
      '/admin/v1/companies',
      '/admin/v1/companies/{companyId}/api-keys',
      '/admin/v1/companies/{companyId}/brand',
      '/admin/v1/companies/{companyId}/embedding',
      '/admin/v1/companies/{companyId}/envelopes',
      '/admin/v1/companies/{companyId}/templates',
      '/admin/v1/companies/{companyId}/templates/{templateId}',
      '/admin/v1/companies/{companyId}/templates/{templateId}/archive',
      '/admin/v1/companies/{companyId}/templates/{templateId}/versions',
      '/admin/v1/companies/{companyId}/templates/{templateId}/versions/{version}',
      '/admin/v1/companies/{companyId}/text-messages',
      '/admin/v1/companies/{companyId}/users',
      '/admin/v1/companies/{companyId}/users/{email}',
      '/admin/v1/dead-jobs',
      '/admin/v1/dead-jobs/{id}/retry',
      '/admin/v1/envelopes/{id}/audit',
      '/admin/v1/envelopes/{id}/document',
      '/admin/v1/envelopes/{id}/void',
    ]);
  });

  it('answers a wrong method on an admin path with 405 and Allow', async () => {
    const answer = await call(stack, 'DELETE', '/admin/v1/companies', { token: ADMIN_TOKEN });
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET, POST');
  });
});

describe('admin API of a service without an admin token', () => {
  let stack: TestStack;
  let company: TestCompany;
  let pdf: Uint8Array;
  beforeAll(async () => {
    stack = await openStack({ adminToken: undefined });
    company = await createTestCompany(stack);
    pdf = await generateDocument('No admin', 2, nodeFontSource());
  });
  afterAll(() => stack.close());

  it('has no admin token in its configuration', () => {
    expect(stack.services.config.adminToken).toBeUndefined();
  });

  it.each([
    ['the test admin token', { authorization: `Bearer ${ADMIN_TOKEN}` }],
    ['no token', {}],
    ['an empty Bearer', { authorization: 'Bearer ' }],
  ])('answers every admin path with 404 not_found, given %s, and changes nothing', async (_label, headers) => {
    const marker = unique();
    for (const request of [...adminRequests(company, pdf, marker), { label: 'unknown', method: 'GET', path: '/admin/v1/nothing-here' }]) {
      const answer = await send(stack, request, headers);
      expect(answer.status, request.label).toBe(404);
      expectError(answer, 404, 'not_found');
    }
    await expectUntouched(stack, company, marker);
  });

  it('still serves the public API', async () => {
    const answer = await call(stack, 'GET', '/v1/templates', { token: company.owner.token });
    expect(answer.status).toBe(200);
    expect((await call(stack, 'GET', '/v1/openapi.json')).status).toBe(200);
  });
});
