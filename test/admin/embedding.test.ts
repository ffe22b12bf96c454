/**
 * `PUT` and `GET /admin/v1/companies/{id}/embedding`: the origins allowed to frame a company's
 * signing pages. What is stored is each origin as a browser spells it; anything that is not an
 * origin of a page served over TLS (or, on a development server, of this machine) is refused,
 * naming the item, and a refused list changes nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingSettings } from '../../src/data/schema.js';
import { checkAllowedOrigins } from '../../src/domain/companies/embedding.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';
import { admin, adminCompany } from './admin-support.js';
import { expectError } from '../support/expect-error.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const embeddingPath = (companyId: string) => `/admin/v1/companies/${companyId}/embedding`;
const putEmbedding = (companyId: string, body: unknown) => admin(stack, 'PUT', embeddingPath(companyId), body);
const getEmbedding = (companyId: string) => admin(stack, 'GET', embeddingPath(companyId));
const storedOrigins = async (companyId: string) =>
  (await stack.services.database.db.select().from(embeddingSettings).where(eq(embeddingSettings.companyId, companyId)))[0]?.allowedOrigins ?? null;
const origins = (count: number) => Array.from({ length: count }, (_, index) => `https://app${index}.example.com`);

describe('PUT /admin/v1/companies/{id}/embedding', () => {
  it('takes ten origins, stores each as a browser spells it, and GET reads them back', async () => {
    const company = await adminCompany(stack);
    expect((await getEmbedding(company.id)).body).toEqual({ company_id: company.id, allowed_origins: [] });

    const given = ['HTTPS://App.Example.COM:443', 'https://a.example.com:8443/', 'https://bücher.example', ...origins(7)];
    const answer = await putEmbedding(company.id, { allowed_origins: given });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const expected = ['https://app.example.com', 'https://a.example.com:8443', 'https://xn--bcher-kva.example', ...origins(7)];
    expect(answer.body).toEqual({ company_id: company.id, allowed_origins: expected });
    expect(given).toHaveLength(10);
    expect((await getEmbedding(company.id)).body).toEqual(answer.body);
    expect(await storedOrigins(company.id)).toEqual(expected);
  });

  it('refuses eleven, and keeps the list it had', async () => {
    const company = await adminCompany(stack);
    expect((await putEmbedding(company.id, { allowed_origins: ['https://kept.example.com'] })).status).toBe(200);
    expectError(await putEmbedding(company.id, { allowed_origins: origins(11) }), 422, 'validation_failed', ['allowed_origins']);
    expect((await getEmbedding(company.id)).body.allowed_origins).toEqual(['https://kept.example.com']);
  });

  it('replaces the whole list, and an empty one allows no frame', async () => {
    const company = await adminCompany(stack);
    await putEmbedding(company.id, { allowed_origins: ['https://one.example.com', 'https://two.example.com'] });
    expect((await putEmbedding(company.id, { allowed_origins: ['https://three.example.com'] })).body.allowed_origins).toEqual(['https://three.example.com']);
    expect((await putEmbedding(company.id, { allowed_origins: [] })).body.allowed_origins).toEqual([]);
    expect(await storedOrigins(company.id)).toEqual([]);
  });

  it('refuses what is not an origin of a page over TLS, naming each item', async () => {
    const company = await adminCompany(stack);
    const refused = [
      'https://app.example.com/embed', // a path
      'https://app.example.com/?', // an empty query
      'https://app.example.com?x=1',
      'https://app.example.com#top',
      'https://user:secret@app.example.com',
      'http://app.example.com', // http, not this machine
      'https://*.example.com',
      'app.example.com',
      'ftp://app.example.com',
      'javascript:alert(1)',
    ];
    const answer = await putEmbedding(company.id, { allowed_origins: refused });
    expectError(
      answer,
      422,
      'validation_failed',
      refused.map((_, index) => `allowed_origins[${index}]`),
    );
    const messages = answer.body.error.details.issues.map((issue: { message: string }) => issue.message);
    expect(messages[0]).toContain('"https://app.example.com/embed"');
    expect(messages[0]).toContain('without a path');
    expect(messages[5]).toContain('http:// is accepted for this machine only');
    expect(await storedOrigins(company.id)).toBeNull();

    for (const text of ['', ' https://app.example.com', 'https://app.example.com\n', 'https://a_b.example.com', 'https://app.example.com:0']) {
      expectError(await putEmbedding(company.id, { allowed_origins: ['https://fine.example.com', text] }), 422, 'validation_failed', ['allowed_origins[1]']);
    }
    expectError(await putEmbedding(company.id, { allowed_origins: [42] }), 422, 'validation_failed', ['allowed_origins[0]']);
    expectError(await putEmbedding(company.id, { allowed_origins: [`https://${'a'.repeat(300)}.example.com`] }), 422, 'validation_failed', [
      'allowed_origins[0]',
    ]);
    expectError(await putEmbedding(company.id, {}), 422, 'validation_failed', ['allowed_origins']);
    expectError(await putEmbedding(company.id, { allowed_origins: [], extra: true }), 422, 'validation_failed', ['extra']);
  });

  it('refuses a host that a frame-ancestors source cannot name: an IPv6 address, a part over 63 characters, a name over 253', async () => {
    const company = await adminCompany(stack);
    const label = (length: number) => 'a'.repeat(length);
    // Four parts of 63 and a dot between each: 4 × 63 + 3 = 255; cut to the length wanted, as parts of at most 63.
    const host = (length: number) => `${label(63)}.${label(63)}.${label(63)}.${label(length - 3 * 64)}`;
    expect(host(253)).toHaveLength(253);
    const accepted = [`https://${label(63)}.example.com`, `https://${host(253)}`, `https://${host(253)}:8443`, 'https://192.0.2.10'];
    const answer = await putEmbedding(company.id, { allowed_origins: accepted });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.allowed_origins).toEqual(accepted);

    const refused = [
      'https://[::1]',
      'https://[::ffff:7f00:1]',
      'https://[2001:db8::1]:8443',
      `https://${label(64)}.example.com`,
      `https://${host(254)}`,
      `https://${host(253)}.`, // an empty last part
      `https://${'bücher'.repeat(10)}.example`, // 60 characters, 67 in its ASCII form (xn--…)
    ];
    const refusal = await putEmbedding(company.id, { allowed_origins: refused });
    expectError(
      refusal,
      422,
      'validation_failed',
      refused.map((_, index) => `allowed_origins[${index}]`),
    );
    const messages = refusal.body.error.details.issues.map((issue: { message: string }) => issue.message);
    expect(messages[0]).toContain('cannot name an IPv6 address');
    expect(messages[1]).toContain('cannot name an IPv6 address');
    expect(messages[3]).toContain('at most 63 characters (one has 64)');
    expect(messages[4]).toContain('at most 253 characters (it has 254)');
    expect(messages[6]).toContain('at most 63 characters');
    expect(await storedOrigins(company.id)).toEqual(accepted);

    // A development server's http:// for this machine does not take an IPv6 address either.
    expectError(await putEmbedding(company.id, { allowed_origins: ['http://[::1]:3000'] }), 422, 'validation_failed', ['allowed_origins[0]']);
  });

  it('refuses the same origin twice, however it is spelled', async () => {
    const company = await adminCompany(stack);
    const answer = await putEmbedding(company.id, {
      allowed_origins: ['https://app.example.com', 'https://other.example.com', 'https://APP.example.com:443/'],
    });
    expectError(answer, 422, 'validation_failed', ['allowed_origins[2]']);
    expect(answer.body.error.details.issues[0].message).toContain('allowed_origins[0]');
  });

  it('takes http:// for this machine on a development server only', async () => {
    const company = await adminCompany(stack);
    const loopback = ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://127.10.0.3', 'http://LOCALHOST:80'];
    const answer = await putEmbedding(company.id, { allowed_origins: loopback });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.allowed_origins).toEqual(['http://localhost:5173', 'http://127.0.0.1:8080', 'http://127.10.0.3', 'http://localhost']);

    // A deployed service (no development relaxations): the same list is refused, item by item.
    stack.services.config.allowPrivateWebhookTargets = false;
    try {
      const refused = await putEmbedding(company.id, { allowed_origins: loopback });
      expectError(
        refused,
        422,
        'validation_failed',
        loopback.map((_, index) => `allowed_origins[${index}]`),
      );
      expect(refused.body.error.details.issues[0].message).toContain('Must start with https://');
      expect((await putEmbedding(company.id, { allowed_origins: ['https://localhost:8443'] })).status).toBe(200);
    } finally {
      stack.services.config.allowPrivateWebhookTargets = true;
    }
  });

  it('answers 404 company_not_found for a company that does not exist, and changes no other company', async () => {
    const company = await adminCompany(stack);
    const other = await adminCompany(stack);
    await putEmbedding(other.id, { allowed_origins: ['https://other.example.com'] });
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      expectError(await putEmbedding(id, { allowed_origins: ['https://app.example.com'] }), 404, 'company_not_found');
      expectError(await getEmbedding(id), 404, 'company_not_found');
    }
    await putEmbedding(company.id, { allowed_origins: ['https://mine.example.com'] });
    expect((await getEmbedding(other.id)).body.allowed_origins).toEqual(['https://other.example.com']);
  });

  it('answers only to the admin token', async () => {
    const company = await adminCompany(stack);
    expectError(await call(stack, 'GET', embeddingPath(company.id)), 401, 'unauthorized');
    expectError(
      await call(stack, 'PUT', embeddingPath(company.id), { token: 'adm_wrong_token_0123456789', body: { allowed_origins: [] } }),
      401,
      'unauthorized',
    );
  });
});

describe('checkAllowedOrigins', () => {
  it('takes exactly ten, one past is refused', () => {
    expect(checkAllowedOrigins(origins(10), { allowLoopbackHttp: false })).toHaveLength(10);
    expect(() => checkAllowedOrigins(origins(11), { allowLoopbackHttp: false })).toThrow(/not valid/);
  });
});
