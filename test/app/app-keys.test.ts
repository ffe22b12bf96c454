/**
 * The application's API keys pages over the real stack: owners and administrators list, create,
 * rotate and revoke the company's keys; the plain key shows on one answer only; the key made on
 * the page buys a token, and its revoke stops that token on its next call; other roles are
 * refused, on the pages and on a forged post; another company's key is not found; a form with a
 * mistake is shown again and makes nothing; the last use of a key is its last exchange.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditEvents } from '../../src/data/schema.js';
import { revokeApiKey, rotateApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { scopes } from '../../src/domain/auth/scopes.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { appClient, freshEmail, signIn } from '../support/app-client.js';
import { addKeyHolder, asOperator, createTestCompany, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  [company, other] = [await createTestCompany(stack), await createTestCompany(stack)];
});
afterAll(() => stack.close());

type Role = 'owner' | 'admin' | 'member' | 'viewer';

async function userOf(role: Role, companyId = company.id, active = true) {
  const email = freshEmail(role);
  const { user } = await putUser(asOperator(stack, companyId), { email, input: { name: `Pat ${role}`, role, active, esign_seat: true } });
  return { email, user };
}

/** A signed-in browser whose every answer is kept, to count where a key appears. */
async function signedIn(role: Role) {
  const who = await userOf(role);
  const client = appClient(stack);
  expect((await signIn(stack, client, who.email)).status).toBe(303);
  const answers: Answer<string>[] = [];
  const keep = async (answer: Promise<Answer<string>>) => {
    const got = await answer;
    answers.push(got);
    return got;
  };
  return {
    ...who,
    client,
    answers,
    get: (path: string) => keep(client.get(path)),
    post: (path: string, fields: Record<string, string> = {}) => keep(client.post(path, fields)),
  };
}

function keyIn(page: string): string {
  const key = /id="new-key"[^>]* value="([^"]+)"/.exec(page)?.[1];
  if (!key) throw new Error('No key on the page');
  return key;
}

const exchange = (key: string, ip = '203.0.113.7') => call(stack, 'POST', '/v1/auth/token', { body: { api_key: key }, headers: { 'x-test-client-ip': ip } });
const keysOf = (companyId: string) => stack.services.database.db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId));

/** A form body with a field repeated, which the app client's object cannot say. */
async function postCreate(who: Awaited<ReturnType<typeof signedIn>>, fields: { name: string; owner: string; scopes: string[] }) {
  await who.get('/app/keys/new');
  const body = new URLSearchParams({ name: fields.name, owner: fields.owner });
  for (const scope of fields.scopes) body.append('scope', scope);
  const token = /name="form_token" value="([^"]+)"/.exec(who.answers.at(-1)!.body)?.[1] ?? '';
  body.append('form_token', token);
  const cookie = [...who.client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const answer = await call<string>(stack, 'POST', '/app/keys', {
    rawBody: body.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie,
      origin: new URL(BASE_URL).origin,
      'sec-fetch-site': 'same-origin',
      'x-test-client-ip': '198.51.100.9',
    },
  });
  who.answers.push(answer);
  return answer;
}

describe('the API keys pages', () => {
  it('lets an owner create a key that buys a token, shows it once, records its last use, and revoke it for the very next call', async () => {
    const owner = await signedIn('owner');
    const home = await owner.get('/app');
    expect(home.body).toContain('href="/app/keys"');
    const form = await owner.get('/app/keys/new');
    expect(form.status).toBe(200);
    for (const scope of scopes) expect(form.body).toContain(`value="${scope}"`);
    expect(form.body).toContain(`<option value="${owner.user.id}" selected>`);

    const made = await postCreate(owner, { name: 'Billing sync', owner: owner.user.id, scopes: ['templates:read', 'envelopes:send'] });
    expect(made.status).toBe(200);
    const key = keyIn(made.body);
    expect(made.body).toContain('id="copy-key"');
    expect(made.body).toContain('src="/static/app-keys.js"');
    const [row] = (await keysOf(company.id)).filter((stored) => stored.name === 'Billing sync');
    expect(row).toMatchObject({ ownerUserId: owner.user.id, scopes: ['templates:read', 'envelopes:send'], revokedAt: null, lastUsedAt: null });
    expect(JSON.stringify(row)).not.toContain(key);

    const token = await exchange(key);
    expect(token.status).toBe(200);
    const list = await owner.get('/app/keys');
    expect(list.status).toBe(200);
    expect(list.body).toContain('Billing sync');
    expect(list.body).toContain(`${row!.prefix}…`);
    expect(list.body).toContain('from 203.0.113.7');
    expect(list.body).toContain(owner.email);

    expect((await call(stack, 'GET', '/v1/templates', { token: token.body.access_token })).status).toBe(200);
    const confirm = await owner.get(`/app/keys/${row!.id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(`action="/app/keys/${row!.id}/revoke"`);
    const revoked = await owner.post(`/app/keys/${row!.id}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe(`/app/keys?revoked=${row!.id}`);
    expect((await call(stack, 'GET', '/v1/templates', { token: token.body.access_token })).status).toBe(401);
    expect((await exchange(key)).status).toBe(401);
    const after = await owner.get(revoked.headers.get('location')!);
    expect(after.body).toContain('The key Billing sync is revoked');
    expect(after.body).not.toContain(`/app/keys/${row!.id}/rotate`);

    // The plain key appears in exactly one answer of all the owner's pages.
    expect(owner.answers.filter((answer) => String(answer.body).includes(key))).toHaveLength(1);
    const audit = await stack.services.database.db
      .select({ kind: auditEvents.kind, actorType: auditEvents.actorType, actorId: auditEvents.actorId })
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.actorId, owner.user.id)));
    expect(audit.filter((event) => event.kind.startsWith('api_key.'))).toEqual([
      { kind: 'api_key.created', actorType: 'user', actorId: owner.user.id },
      { kind: 'api_key.revoked', actorType: 'user', actorId: owner.user.id },
    ]);
  });

  it('lets an administrator rotate a key: the new key once, the old key and its token stop at once', async () => {
    const admin = await signedIn('admin');
    const holder = await addKeyHolder(stack, company.id, { role: 'member' });
    const confirm = await admin.get(`/app/keys/${holder.id}/rotate`);
    expect(confirm.status).toBe(200);
    const rotated = await admin.post(`/app/keys/${holder.id}/rotate`);
    expect(rotated.status).toBe(200);
    const key = keyIn(rotated.body);
    expect(key).not.toBe(holder.key);
    expect((await call(stack, 'GET', '/v1/templates', { token: holder.token })).status).toBe(401);
    expect((await exchange(holder.key)).status).toBe(401);
    expect((await exchange(key)).status).toBe(200);
    expect((await admin.get('/app/keys')).body).not.toContain(key);
    expect(admin.answers.filter((answer) => String(answer.body).includes(key))).toHaveLength(1);
  });

  it.each(['member', 'viewer'] as const)('refuses a %s: no navigation entry, the pages 403, and a forged post makes nothing', async (role) => {
    const person = await signedIn(role);
    const home = await person.get('/app');
    expect(home.body).not.toContain('href="/app/keys"');
    for (const path of ['/app/keys', '/app/keys/new', `/app/keys/${company.owner.id}/revoke`]) {
      const page = await person.get(path);
      expect(page.status).toBe(403);
      expect(page.body).toContain('Only owners and administrators manage API keys');
    }
    await person.get('/app');
    const before = (await keysOf(company.id)).length;
    const forged = await postCreate(person, { name: 'Forged', owner: person.user.id, scopes: ['templates:read'] });
    expect(forged.status).toBe(403);
    await person.get('/app');
    expect((await person.post(`/app/keys/${company.owner.id}/revoke`)).status).toBe(403);
    await person.get('/app');
    expect((await person.post(`/app/keys/${company.owner.id}/rotate`)).status).toBe(403);
    expect((await keysOf(company.id)).length).toBe(before);
    expect((await exchange(company.owner.key)).status).toBe(200);
  });

  it("answers another company's key, an unknown key and a malformed id as not found, and leaves the key alone", async () => {
    const owner = await signedIn('owner');
    for (const id of [other.owner.id, 'key_unknown000000000000000', 'not-a-key']) {
      expect((await owner.get(`/app/keys/${id}/rotate`)).status).toBe(404);
      expect((await owner.get(`/app/keys/${id}/revoke`)).status).toBe(404);
      await owner.get('/app/keys');
      expect((await owner.post(`/app/keys/${id}/rotate`)).status).toBe(404);
      await owner.get('/app/keys');
      expect((await owner.post(`/app/keys/${id}/revoke`)).status).toBe(404);
    }
    expect((await owner.get('/app/keys')).body).not.toContain(other.owner.id);
    expect((await exchange(other.owner.key)).status).toBe(200);
  });

  it('shows the form again with what is wrong, and makes nothing, for a bad name, no or unknown scopes, or an owner not an active user of the company', async () => {
    const owner = await signedIn('owner');
    const inactive = await userOf('member', company.id, false);
    const stranger = await userOf('owner', other.id);
    const before = (await keysOf(company.id)).length;
    const cases = [
      { fields: { name: '', owner: owner.user.id, scopes: ['templates:read'] }, says: 'Enter a name' },
      { fields: { name: 'x'.repeat(101), owner: owner.user.id, scopes: ['templates:read'] }, says: 'Enter a name' },
      { fields: { name: 'Two\nlines', owner: owner.user.id, scopes: ['templates:read'] }, says: 'Enter a name' },
      { fields: { name: 'No scope', owner: owner.user.id, scopes: [] }, says: 'Tick at least one scope' },
      { fields: { name: 'Odd scope', owner: owner.user.id, scopes: ['templates:read', 'admin:all'] }, says: 'Tick at least one scope' },
      { fields: { name: 'Inactive owner', owner: inactive.user.id, scopes: ['templates:read'] }, says: 'Choose an active user' },
      { fields: { name: 'Stranger', owner: stranger.user.id, scopes: ['templates:read'] }, says: 'Choose an active user' },
      { fields: { name: 'Nobody', owner: 'not-a-user', scopes: ['templates:read'] }, says: 'Choose an active user' },
    ];
    for (const { fields, says } of cases) {
      const answer = await postCreate(owner, fields);
      expect(answer.status, fields.name).toBe(422);
      expect(answer.body).toContain(says);
      expect(answer.body).toContain('field-invalid');
    }
    expect((await keysOf(company.id)).length).toBe(before);
    // A name of 100 characters is the most, and is made.
    const longest = await postCreate(owner, { name: 'y'.repeat(100), owner: owner.user.id, scopes: ['webhooks:write'] });
    expect(longest.status).toBe(200);
    expect((await keysOf(company.id)).length).toBe(before + 1);
  });

  it('sends a signed-out browser to sign in', async () => {
    const client = appClient(stack);
    const answer = await client.get('/app/keys');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/app');
  });
});

describe('the verbs given the company the page read', () => {
  const auditOf = (keyId: string) =>
    stack.services.database.db
      .select({ kind: auditEvents.kind })
      .from(auditEvents)
      .where(eq(sql`${auditEvents.data}->>'api_key_id'`, keyId));
  const asUserOf = (companyId: string) => ({
    ...asOperator(stack, companyId),
    actor: { kind: 'user' as const, userId: crypto.randomUUID(), sessionId: 'session' },
  });

  it("change only a key of that company: another company's key is not found, unchanged and unrecorded", async () => {
    const theirs = await addKeyHolder(stack, other.id, { role: 'owner' });
    const before = await auditOf(theirs.id);
    for (const verb of [rotateApiKey, revokeApiKey]) {
      await expect(verb(asUserOf(company.id), { apiKeyId: theirs.id })).rejects.toMatchObject({ code: 'api_key_not_found' });
    }
    const [row] = await stack.services.database.db.select().from(apiKeys).where(eq(apiKeys.id, theirs.id));
    expect(row?.revokedAt).toBeNull();
    expect(row?.version).toBe(1);
    expect(await auditOf(theirs.id)).toEqual(before);
  });

  it('record a revoke once: a key revoked already is not found, and no second row is written', async () => {
    const ours = await addKeyHolder(stack, company.id, { role: 'owner' });
    await revokeApiKey(asUserOf(company.id), { apiKeyId: ours.id });
    await expect(revokeApiKey(asUserOf(company.id), { apiKeyId: ours.id })).rejects.toMatchObject({ code: 'api_key_not_found' });
    await expect(rotateApiKey(asUserOf(company.id), { apiKeyId: ours.id })).rejects.toMatchObject({ code: 'api_key_not_found' });
    expect((await auditOf(ours.id)).map((row) => row.kind).sort()).toEqual(['api_key.created', 'api_key.revoked']);
  });
});
