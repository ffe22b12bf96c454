/**
 * The public API of the foundation over HTTP on workerd, through the production adapters (Neon
 * HTTP, Upstash Redis, QStash) against the machine's PostgreSQL and Redis.
 */
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { type Answer, admin, api, keyHolder, newCompany } from './client.js';

const demoKey = 'esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc';
const ndaId = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const globexTemplateId = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e50';

let demoToken: string;
let exchange: { answer: Answer; before: number; after: number };
beforeAll(async () => {
  const before = Math.floor(Date.now() / 1000);
  const answer = await api('POST', '/v1/auth/token', { body: { api_key: demoKey } });
  exchange = { answer, before, after: Math.ceil(Date.now() / 1000) };
  demoToken = answer.body.access_token;
});

describe('start-up', () => {
  it('printed a key, the admin token and a templates curl line that works as printed', async () => {
    const output = inject('e2eDevOutput');
    expect(output).toContain(demoKey);
    expect(output).toContain('adm_e2e_admin_token_0123456789');
    const line = output.split('\n').find((text) => text.includes('/v1/templates -H'))!;
    const [, url, token] = /curl -s (\S+) -H 'authorization: Bearer ([^']+)'/.exec(line)!;
    const answer = await fetch(url!, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
  });
});

describe('authentication', () => {
  it('exchanges the demo key for a one-hour bearer token', async () => {
    const { answer, before, after } = exchange;
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ access_token: expect.stringMatching(/^eyJ/), token_type: 'Bearer', expires_in: 3600 });
    // The token itself says so: issued during the exchange, expiring one hour later to the second.
    const claims = JSON.parse(Buffer.from(demoToken.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(after);
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('refuses a wrong key, a missing token and a forged one', async () => {
    const wrong = await api('POST', '/v1/auth/token', { body: { api_key: 'esk_test_wrong_key_0000000000' } });
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'invalid_api_key']);
    expect((await api('GET', '/v1/templates')).body.error.code).toBe('unauthorized');
    expect((await api('GET', '/v1/templates', { token: `${demoToken.slice(0, -3)}abc` })).status).toBe(401);
  });

  it('checks scope and role on every request, and rotation and revocation at once', async () => {
    const company = await newCompany();
    const viewer = await keyHolder(company.id, { role: 'viewer' });
    const denied = await api('POST', '/v1/contacts', { token: viewer.token, body: { name: 'A', email: 'a@example.test' } });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'permission_denied']);
    const narrow = await keyHolder(company.id, { scopes: ['templates:read'] });
    const scoped = await api('GET', '/v1/contacts', { token: narrow.token });
    expect([scoped.status, scoped.body.error.code]).toEqual([403, 'insufficient_scope']);

    expect((await api('GET', '/v1/templates', { token: company.owner.token })).status).toBe(200);
    const rotated = await admin('POST', `/admin/v1/api-keys/${company.owner.id}/rotate`);
    expect(rotated.body.key).toMatch(/^esk_/);
    expect((await api('GET', '/v1/templates', { token: company.owner.token })).status).toBe(401);

    await admin('POST', `/admin/v1/api-keys/${narrow.id}/revoke`);
    expect((await api('GET', '/v1/templates', { token: narrow.token })).body.error.code).toBe('unauthorized');
  });
});

describe('templates', () => {
  it('lists and reads the company templates with roles and settings', async () => {
    const list = await api('GET', '/v1/templates?per_page=1', { token: demoToken });
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, per_page: 1, total: 2, total_pages: 2 });
    const nda = await api('GET', `/v1/templates/${ndaId}`, { token: demoToken });
    expect(nda.body).toMatchObject({ name: 'Mutual NDA', signing_order: 'sequential', share_signing_links: true, expiry_days: 30 });
    expect(nda.body.roles.map((role: { name: string }) => role.name)).toEqual(['Client', 'Witness', 'Counsel']);
    expect(nda.body.fields).toHaveLength(4);
  });

  it('answers another company template, a malformed id and page=0 with their codes', async () => {
    expect((await api('GET', `/v1/templates/${globexTemplateId}`, { token: demoToken })).body.error.code).toBe('template_not_found');
    expect((await api('GET', '/v1/templates/nope', { token: demoToken })).status).toBe(404);
    const invalid = await api('GET', '/v1/templates?page=0&per_page=101', { token: demoToken });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(['page', 'per_page']);
  });
});

describe('contacts', () => {
  it('creates, lists and refuses a duplicate contact, through the Neon adapter', async () => {
    const email = `e2e-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const created = await api('POST', '/v1/contacts', { token: demoToken, body: { name: 'E2E Contact', email, contact_number: '+1 555 0100' } });
    expect(created.status).toBe(201);
    expect(created.body.created_at).toMatch(/\.\d{3}Z$/);
    const duplicate = await api('POST', '/v1/contacts', { token: demoToken, body: { name: 'Again', email: email.toUpperCase() } });
    expect([duplicate.status, duplicate.body.error.code]).toEqual([409, 'contact_exists']);
    const list = await api('GET', '/v1/contacts?per_page=100', { token: demoToken });
    expect(list.body.data.map((contact: { email: string }) => contact.email)).toContain(email);
  });

  it('refuses a 151-character e-mail with its path', async () => {
    const email = `${'a'.repeat(151 - '@example.test'.length)}@example.test`;
    const answer = await api('POST', '/v1/contacts', { token: demoToken, body: { name: 'Long', email } });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.issues[0].path).toBe('email');
    // The messages are zod's own, in its default English.
    expect(answer.body.error.details.issues[0].message).toBe('Too big: expected string to have <=150 characters');
  });
});

describe('errors and limits on the edge runtime', () => {
  it('answers unknown routes, wrong methods, bad JSON and big bodies in the one error shape', async () => {
    expect((await api('GET', '/v1/nothing')).body.error.code).toBe('not_found');
    const wrongMethod = await api('DELETE', '/v1/contacts', { token: demoToken });
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET, POST']);
    const badJson = await api('POST', '/v1/contacts', { token: demoToken, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(badJson.body.error.code).toBe('validation_failed');
    const array = await api('POST', '/v1/contacts', { token: demoToken, body: [] });
    expect(array.body.error.code).toBe('validation_failed');
    const big = await api('POST', '/v1/contacts', {
      token: demoToken,
      rawBody: `"${'x'.repeat(2 * 1024 * 1024)}"`,
      headers: { 'content-type': 'application/json' },
    });
    expect([big.status, big.body.error.code]).toEqual([413, 'payload_too_large']);
  });

  it('counts requests per key in Redis and says so in the RateLimit headers', async () => {
    const first = await api('GET', '/v1/templates', { token: demoToken });
    const second = await api('GET', '/v1/templates', { token: demoToken });
    expect(first.headers.get('ratelimit-limit')).toBe('1000');
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
  });

  it('serves the OpenAPI document', async () => {
    const document = await api('GET', '/v1/openapi.json');
    expect(document.body.openapi).toBe('3.1.0');
    expect(Object.keys(document.body.paths)).toContain('/v1/auth/token');
  });

  // Last of the file: it uses up this address's token exchanges for the window.
  it('allows 20 token exchanges per IP in 15 minutes, then 429 with Retry-After, whatever CF-Connecting-IP a client makes up', async () => {
    // Each exchange claims another address; only Cloudflare's edge may say who the caller is.
    const spoofed = (i: number) => ({ 'cf-connecting-ip': `198.51.100.${i + 1}` });
    let answer = await api('POST', '/v1/auth/token', { body: { api_key: demoKey }, headers: spoofed(0) });
    for (let i = 1; i < 26 && answer.status === 200; i++) answer = await api('POST', '/v1/auth/token', { body: { api_key: demoKey }, headers: spoofed(i) });
    expect(answer.status).toBe(429);
    expect(answer.body.error.code).toBe('rate_limited');
    expect(answer.headers.get('ratelimit-limit')).toBe('20');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
