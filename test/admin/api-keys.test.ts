import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditEvents } from '../../src/data/schema.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';
import { admin, adminCompany, adminKey, adminUser, exchange, tokenFor } from './admin-support.js';
import { unique } from '../support/unique.js';
import { expectError } from '../support/expect-error.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const keyRow = async (id: string) => (await stack.services.database.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0];
const keysOf = (companyId: string) => stack.services.database.db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId));
const auditKinds = async (companyId: string, apiKeyId: string) =>
  (await stack.services.database.db.select().from(auditEvents).where(eq(auditEvents.companyId, companyId)))
    .filter((event) => event.data.api_key_id === apiKeyId)
    .map((event) => [event.kind, event.actorType])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));

/** A company with an owner and one key of every scope, and a token from that key. */
async function keyHolder() {
  const company = await adminCompany(stack);
  const owner = await adminUser(stack, company.id, 'owner');
  const key = await adminKey(stack, company.id, owner.email);
  const token = await tokenFor(stack, key.key);
  return { company, owner, key, token };
}

const KEY_PATTERN = /^esk_test_[0-9A-Za-z]{32}$/;

describe('POST /admin/v1/companies/{companyId}/api-keys', () => {
  it('returns the plain key once, in the test format, with the record', async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id, 'member');
    const answer = await admin(stack, 'POST', `/admin/v1/companies/${company.id}/api-keys`, {
      owner: owner.email,
      scopes: ['templates:read', 'contacts:write'],
      name: 'CRM integration',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{20}$/),
      key: expect.stringMatching(KEY_PATTERN),
      name: 'CRM integration',
      prefix: answer.body.key.slice(0, 'esk_test_'.length + 4),
      owner: owner.email,
      scopes: ['templates:read', 'contacts:write'],
      created_at: stack.clock.now().toISOString(),
    });
  });

  it('stores only the hash of the key: the plain key and its secret part are nowhere in the row or the audit', async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id);
    const created = await adminKey(stack, company.id, owner.email);
    const row = await keyRow(created.id);
    expect(row).toMatchObject({
      companyId: company.id,
      ownerUserId: owner.id,
      prefix: created.prefix,
      keyHash: await sha256Hex(created.key),
      version: 1,
      revokedAt: null,
      rotatedAt: null,
    });
    const secret = created.key.slice('esk_test_'.length);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(4));
    const audit = JSON.stringify(await stack.services.database.db.select().from(auditEvents).where(eq(auditEvents.companyId, company.id)));
    expect(audit).not.toContain(secret);
    expect(await auditKinds(company.id, created.id)).toEqual([['api_key.created', 'admin']]);
  });

  it('gives a key that works at POST /v1/auth/token, with a token that works on /v1', async () => {
    const { key, token } = await keyHolder();
    expect((await call(stack, 'GET', '/v1/templates', { token })).status).toBe(200);
    const exchanged = await exchange(stack, key.key);
    expect(exchanged.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
  });

  it('gives a different key every time, even for the same owner and scopes', async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id);
    const first = await adminKey(stack, company.id, owner.email);
    const second = await adminKey(stack, company.id, owner.email);
    expect(second.key).not.toBe(first.key);
    expect(second.id).not.toBe(first.id);
    expect(await keysOf(company.id)).toHaveLength(2);
  });

  it('keeps the scopes it was given, once each, and the key can do only those', async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id);
    const answer = await admin(stack, 'POST', `/admin/v1/companies/${company.id}/api-keys`, {
      owner: owner.email.toUpperCase(),
      scopes: ['templates:read', 'templates:read'],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ owner: owner.email, scopes: ['templates:read'], name: null });
    expect((await keyRow(answer.body.id))?.scopes).toEqual(['templates:read']);
    const token = await tokenFor(stack, answer.body.key);
    expect((await call(stack, 'GET', '/v1/templates', { token })).status).toBe(200);
    const denied = await call(stack, 'POST', '/v1/contacts', { token, body: { name: 'No', email: 'no@example.test' } });
    expectError(denied, 403, 'insufficient_scope');
  });

  it('answers an owner who is not a user of the company with 404 user_not_found and stores no key', async () => {
    const company = await adminCompany(stack);
    const other = await adminCompany(stack);
    const outsider = await adminUser(stack, other.id);
    for (const owner of [outsider.email, `nobody-${unique()}@example.test`]) {
      const answer = await admin(stack, 'POST', `/admin/v1/companies/${company.id}/api-keys`, { owner, scopes: ['templates:read'] });
      expectError(answer, 404, 'user_not_found');
      expect(answer.body.error.details).toEqual({ owner });
    }
    expect(await keysOf(company.id)).toEqual([]);
    expect(await keysOf(other.id)).toEqual([]);
  });

  it('answers an unknown or malformed company with 404 company_not_found', async () => {
    for (const companyId of [crypto.randomUUID(), 'acme']) {
      const answer = await admin(stack, 'POST', `/admin/v1/companies/${companyId}/api-keys`, { owner: 'a@example.test', scopes: ['templates:read'] });
      expectError(answer, 404, 'company_not_found');
    }
  });

  it('accepts a key name of 100 characters', async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id);
    const answer = await admin(stack, 'POST', `/admin/v1/companies/${company.id}/api-keys`, {
      owner: owner.email,
      scopes: ['templates:read'],
      name: 'k'.repeat(100),
    });
    expect(answer.status).toBe(201);
    expect((await keyRow(answer.body.id))?.name).toBe('k'.repeat(100));
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['an unknown scope', { scopes: ['templates:read', 'envelopes:void'] }, ['scopes[1]']],
    ['no scopes', { scopes: [] }, ['scopes']],
    ['scopes missing', { scopes: undefined }, ['scopes']],
    ['a malformed owner e-mail', { owner: 'owner-at-example' }, ['owner']],
    ['a key name of 101 characters', { name: 'k'.repeat(101) }, ['name']],
    ['a plain key chosen by the caller', { key: 'esk_test_chosenbythecaller000000000' }, ['key']],
    ['an id chosen by the caller', { id: 'key_mine' }, ['id']],
  ])('refuses %s with 422 validation_failed and stores no key', async (_label, change, paths) => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id);
    const answer = await admin(stack, 'POST', `/admin/v1/companies/${company.id}/api-keys`, { owner: owner.email, scopes: ['templates:read'], ...change });
    expectError(answer, 422, 'validation_failed', paths);
    expect(await keysOf(company.id)).toEqual([]);
  });
});

describe('POST /admin/v1/api-keys/{id}/rotate', () => {
  it('returns a new key once; the old key and its tokens stop working at once; the new key works', async () => {
    const { company, key, token } = await keyHolder();
    const secondToken = await tokenFor(stack, key.key);
    const answer = await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/rotate`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: key.id, key: expect.stringMatching(KEY_PATTERN), prefix: answer.body.key.slice(0, 13) });
    expect(answer.body.key).not.toBe(key.key);

    expectError(await exchange(stack, key.key), 401, 'invalid_api_key');
    for (const old of [token, secondToken]) expectError(await call(stack, 'GET', '/v1/templates', { token: old }), 401, 'unauthorized');

    const fresh = await tokenFor(stack, answer.body.key);
    expect((await call(stack, 'GET', '/v1/templates', { token: fresh })).status).toBe(200);

    const row = await keyRow(key.id);
    expect(row).toMatchObject({ keyHash: await sha256Hex(answer.body.key), prefix: answer.body.prefix, version: 2, revokedAt: null });
    expect(row?.rotatedAt?.toISOString()).toBe(stack.clock.now().toISOString());
    expect(JSON.stringify(row)).not.toContain(answer.body.key.slice(9));
    expect(await auditKinds(company.id, key.id)).toEqual(expect.arrayContaining([['api_key.rotated', 'admin']]));
  });

  it('can rotate again: each rotation ends the tokens of the key before it', async () => {
    const { key } = await keyHolder();
    const second = (await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/rotate`)).body.key as string;
    const secondToken = await tokenFor(stack, second);
    const third = await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/rotate`);
    expect(third.status).toBe(200);
    expectError(await exchange(stack, second), 401, 'invalid_api_key');
    expectError(await call(stack, 'GET', '/v1/templates', { token: secondToken }), 401, 'unauthorized');
    expect((await exchange(stack, third.body.key)).status).toBe(200);
    expect((await keyRow(key.id))?.version).toBe(3);
  });

  it('leaves the other keys of the same owner alone', async () => {
    const { company, owner, key } = await keyHolder();
    const sibling = await adminKey(stack, company.id, owner.email);
    const siblingToken = await tokenFor(stack, sibling.key);
    expect((await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/rotate`)).status).toBe(200);
    expect((await call(stack, 'GET', '/v1/templates', { token: siblingToken })).status).toBe(200);
    expect((await exchange(stack, sibling.key)).status).toBe(200);
    expect(await keyRow(sibling.id)).toMatchObject({ version: 1, rotatedAt: null, keyHash: await sha256Hex(sibling.key) });
  });
});

describe('POST /admin/v1/api-keys/{id}/revoke', () => {
  it('ends the key and every token from it at once, and says when', async () => {
    const { company, key, token } = await keyHolder();
    const answer = await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/revoke`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: key.id, revoked_at: stack.clock.now().toISOString() });
    expect(answer.body).not.toHaveProperty('key');

    expectError(await call(stack, 'GET', '/v1/templates', { token }), 401, 'unauthorized');
    expectError(await exchange(stack, key.key), 401, 'invalid_api_key');

    const row = await keyRow(key.id);
    expect(row?.revokedAt?.toISOString()).toBe(answer.body.revoked_at);
    expect(row).toMatchObject({ version: 1, keyHash: await sha256Hex(key.key) });
    expect(await auditKinds(company.id, key.id)).toEqual([
      ['api_key.created', 'admin'],
      ['api_key.revoked', 'admin'],
    ]);
  });

  it('ends a rotated key and the tokens of its new secret too', async () => {
    const { key } = await keyHolder();
    const rotated = (await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/rotate`)).body.key as string;
    const token = await tokenFor(stack, rotated);
    expect((await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/revoke`)).status).toBe(200);
    expectError(await exchange(stack, rotated), 401, 'invalid_api_key');
    expectError(await call(stack, 'GET', '/v1/templates', { token }), 401, 'unauthorized');
  });
});

describe('rotating or revoking a key that is unknown or already revoked', () => {
  it.each(['rotate', 'revoke'])('%s answers 404 api_key_not_found for an unknown id', async (action) => {
    for (const id of ['key_doesnotexist000000', crypto.randomUUID(), "x' or '1'='1"]) {
      const answer = await admin(stack, 'POST', `/admin/v1/api-keys/${encodeURIComponent(id)}/${action}`);
      expectError(answer, 404, 'api_key_not_found');
      expect(answer.body.error.details).toEqual({ api_key_id: id });
    }
  });

  it.each(['rotate', 'revoke'])('%s answers 404 api_key_not_found for a revoked key, and changes nothing', async (action) => {
    const { company, key } = await keyHolder();
    const revoked = await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/revoke`);
    const before = await keyRow(key.id);
    stack.clock.advance(1000);
    expectError(await admin(stack, 'POST', `/admin/v1/api-keys/${key.id}/${action}`), 404, 'api_key_not_found');
    const after = await keyRow(key.id);
    expect(after).toEqual(before);
    expect(after?.revokedAt?.toISOString()).toBe(revoked.body.revoked_at);
    expectError(await exchange(stack, key.key), 401, 'invalid_api_key');
    expect((await auditKinds(company.id, key.id)).map(([kind]) => kind)).toEqual(['api_key.created', 'api_key.revoked']);
  });
});

describe('keys of one company', () => {
  it('rotating one leaves the keys and tokens of another company alone', async () => {
    const first = await keyHolder();
    const second = await keyHolder();
    await admin(stack, 'POST', `/admin/v1/api-keys/${first.key.id}/rotate`);
    expect((await call(stack, 'GET', '/v1/templates', { token: second.token })).status).toBe(200);
    expect(await keysOf(second.company.id)).toEqual([expect.objectContaining({ id: second.key.id, version: 1 })]);
  });
});
