import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCode } from '../support/http.js';
import { addKeyHolder, createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

describe('GET /v1/templates', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(stack);
    for (let i = 0; i < 3; i++) {
      await createTestTemplate(stack, company.id, { name: `Template ${i}` });
      stack.clock.advance(1000);
    }
  });

  it('lists the company templates newest first with roles and inherited settings, never fields or bytes', async () => {
    const answer = await call(stack, 'GET', '/v1/templates', { token: company.owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.pagination).toEqual({ page: 1, per_page: 25, total: 3, total_pages: 1 });
    expect(answer.body.data.map((t: { name: string }) => t.name)).toEqual(['Template 2', 'Template 1', 'Template 0']);
    const [first] = answer.body.data;
    expect(first).toMatchObject({
      expiry_days: 30,
      reminders: { first_after_days: 2, every_days: 3 },
      signing_order: 'sequential',
      share_signing_links: true,
      email_subject: 'Please sign the NDA',
    });
    expect(first.roles).toEqual([
      { name: 'Client', type: 'signer', order: 1, locked: false, recipient: null, verification: 'none', contact_number_required: false },
      { name: 'Witness', type: 'signer', order: 2, locked: false, recipient: null, verification: 'none', contact_number_required: false },
      {
        name: 'Counsel',
        type: 'cc',
        order: 3,
        locked: true,
        recipient: { name: 'Carl Counsel', email: 'counsel@example.test' },
        verification: 'none',
        contact_number_required: false,
      },
    ]);
    expect(first).not.toHaveProperty('fields');
    expect(JSON.stringify(answer.body)).not.toContain('content');
  });

  it('pages exactly: per_page at 1 and 100, a page past the end is empty', async () => {
    const second = await call(stack, 'GET', '/v1/templates?page=2&per_page=1', { token: company.owner.token });
    expect(second.body.pagination).toEqual({ page: 2, per_page: 1, total: 3, total_pages: 3 });
    expect(second.body.data.map((t: { name: string }) => t.name)).toEqual(['Template 1']);
    const all = await call(stack, 'GET', '/v1/templates?per_page=100', { token: company.owner.token });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(3);
    const past = await call(stack, 'GET', '/v1/templates?page=9', { token: company.owner.token });
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(3);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
  ])('refuses %s with validation_failed naming the parameter', async (query, field) => {
    const answer = await call(stack, 'GET', `/v1/templates?${query}`, { token: company.owner.token });
    expect(answer.status).toBe(422);
    expect(errorCode(answer)).toBe('validation_failed');
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([field]);
  });

  it('shows another company nothing of these templates', async () => {
    const other = await createTestCompany(stack);
    const answer = await call(stack, 'GET', '/v1/templates', { token: other.owner.token });
    expect(answer.body).toEqual({ data: [], pagination: { page: 1, per_page: 25, total: 0, total_pages: 0 } });
  });

  it('lets a viewer read templates', async () => {
    const viewer = await addKeyHolder(stack, company.id, { role: 'viewer' });
    expect((await call(stack, 'GET', '/v1/templates', { token: viewer.token })).status).toBe(200);
  });
});

describe('GET /v1/templates/{id}', () => {
  it('returns one template with its roles, settings, field layout and document facts', async () => {
    const company = await createTestCompany(stack);
    const template = await createTestTemplate(stack, company.id);
    const answer = await call(stack, 'GET', `/v1/templates/${template.id}`, { token: company.owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(template.id);
    expect(answer.body.roles).toHaveLength(3);
    expect(answer.body.fields).toEqual([
      { role: 'Client', type: 'signature', label: null, page: 2, x: 72, y: 640, width: 200, height: 40, required: true, settings: null },
      { role: 'Witness', type: 'signature', label: null, page: 2, x: 72, y: 700, width: 200, height: 40, required: true, settings: null },
    ]);
    expect(answer.body.document).toMatchObject({
      file_name: 'nda.pdf',
      page_count: 2,
      pages: [
        { width: 612, height: 792 },
        { width: 612, height: 792 },
      ],
    });
    expect(answer.body.document.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers an unknown, malformed or other company id with template_not_found', async () => {
    const company = await createTestCompany(stack);
    const other = await createTestCompany(stack);
    const foreign = await createTestTemplate(stack, other.id);
    for (const id of [crypto.randomUUID(), 'not-a-uuid', foreign.id, "1' or '1'='1"]) {
      const answer = await call(stack, 'GET', `/v1/templates/${encodeURIComponent(id)}`, { token: company.owner.token });
      expect(answer.status, id).toBe(404);
      expect(errorCode(answer)).toBe('template_not_found');
    }
  });
});
