/**
 * The application's audit log over the real stack: what owners and administrators did (sign-in,
 * a key made and revoked, an envelope voided) appears as sentences, newest first; the filters by
 * group and by person; the keyset pages and their bounds; roles refused with a page; another
 * company's rows never shown; bad filters answered 400 with no rows. And every kind the service
 * writes reads as a sentence, its own or one naming the kind.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMessages } from '../../src/company-app/messages.js';
import { auditSentence, sentenceKeyOf } from '../../src/company-app/html/audit-sentence.js';
import { auditKinds } from '../../src/data/event-kinds.js';
import { auditEvents, type UserRole } from '../../src/data/schema.js';
import { type AuditEntry, auditGroups, groupOf } from '../../src/domain/audit/company-audit-log.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { type AppClient, appClient, freshEmail, signIn } from '../support/app-client.js';
import { drained } from '../support/drained.js';
import { asOperator, createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  [company, other] = [await createTestCompany(stack), await createTestCompany(stack)];
});
afterAll(() => stack.close());

async function personOf(companyId: string, role: UserRole) {
  const email = freshEmail(role);
  const name = `Audit ${role} ${unique()}`;
  const { user } = await putUser(asOperator(stack, companyId), { email, input: { name, role, active: true, esign_seat: true } });
  const client = appClient(stack);
  expect((await signIn(stack, client, email)).status).toBe(303);
  return { email, name, id: user.id as string, client };
}

const kindsIn = (page: string) => [...page.matchAll(/<tr data-kind="([^"]+)">/g)].map((match) => match[1]);
const rowsIn = (page: string) =>
  [...page.matchAll(/<tr data-kind="[^"]+">\s*<th scope="row">([^<]*)<\/th>/g)].map((match) => match[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'"));
const hrefOf = (page: string, rel: 'next' | 'prev') => new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(page)?.[1]?.replace(/&amp;/g, '&');

/** Makes a key from the keys pages and revokes it, as the person; answers the key's name. */
async function makeAndRevokeKey(client: AppClient, ownerId: string) {
  const name = `Audit key ${unique()}`;
  await client.get('/app/keys/new');
  expect((await client.post('/app/keys', { name, scope: 'contacts:read', owner: ownerId })).status).toBe(200);
  const list = await client.get('/app/keys');
  const id = new RegExp(`href="/app/keys/([^/"]+)/revoke" aria-label="Revoke ${name}"`).exec(list.body)?.[1];
  expect(id).toBeDefined();
  await client.get(`/app/keys/${id}/revoke`);
  expect((await client.post(`/app/keys/${id}/revoke`)).status).toBe(303);
  return name;
}

describe('what owners and administrators did reads as sentences, newest first', () => {
  it('shows the sign-in, the key made and revoked, and the envelope voided, with their times', async () => {
    const owner = await personOf(company.id, 'owner');
    const keyName = await makeAndRevokeKey(owner.client, owner.id);
    const { envelopeId } = await sendTestEnvelope(stack, company);
    await drained(stack);
    await owner.client.get(`/app/envelopes/${envelopeId}`);
    expect((await owner.client.post(`/app/envelopes/${envelopeId}/void`, { reason: 'Wrong counterparty' })).status).toBe(303);

    const page = await owner.client.get('/app/audit');
    expect(page.status).toBe(200);
    const rows = rowsIn(page.body);
    const at = (text: string) => rows.findIndex((row) => row.includes(text));
    expect(at(`${owner.name} signed in`)).toBeGreaterThanOrEqual(0);
    expect(at(`${owner.name} created the API key “${keyName}”`)).toBeGreaterThanOrEqual(0);
    expect(at(`${owner.name} revoked the API key “${keyName}”`)).toBeGreaterThanOrEqual(0);
    expect(rows.some((row) => row.startsWith(`${owner.name} voided the envelope “`) && row.endsWith(': Wrong counterparty'))).toBe(true);
    expect(rows.some((row) => row.startsWith('The API key ') && row.includes(' sent the envelope “'))).toBe(true);
    // Newest first: the void, then the revoke, the create, the sign-in.
    expect(at('voided the envelope')).toBeLessThan(at(`revoked the API key “${keyName}”`));
    expect(at(`revoked the API key “${keyName}”`)).toBeLessThan(at(`created the API key “${keyName}”`));
    expect(at(`created the API key “${keyName}”`)).toBeLessThan(at(`${owner.name} signed in`));
    expect(page.body).toMatch(/<time datetime="[^"]+Z">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/time>/);
    expect(page.body).toContain('aria-current="page">Audit log</a>');
  });

  it('shows the client address a row recorded', async () => {
    const owner = await personOf(company.id, 'admin');
    await stack.services.database.db.insert(auditEvents).values({
      companyId: company.id,
      kind: 'user.signed_in',
      actorType: 'user',
      actorId: owner.id,
      data: { ip: '203.0.113.44' },
      createdAt: stack.clock.now(),
    });
    const page = await owner.client.get(`/app/audit?user=${owner.id}`);
    expect(page.body).toContain('>203.0.113.44</td>');
  });
});

describe('filters', () => {
  it('by group: only the kinds of the group', async () => {
    const owner = await personOf(company.id, 'owner');
    await makeAndRevokeKey(owner.client, owner.id);
    for (const group of auditGroups) {
      const page = await owner.client.get(`/app/audit?group=${group}`);
      expect(page.status).toBe(200);
      for (const kind of kindsIn(page.body)) expect(groupOf(kind!)).toBe(group);
    }
    const keys = kindsIn((await owner.client.get('/app/audit?group=keys')).body);
    expect(keys).toContain('api_key.created');
    expect(keys).toContain('api_key.revoked');
    expect(kindsIn((await owner.client.get('/app/audit?group=sign-ins')).body)).toContain('user.signed_in');
    expect((await owner.client.get('/app/audit?group=webhooks')).body).toContain('Nothing recorded matches these filters.');
  });

  it('by person: only the rows that user wrote, and the form keeps the choice', async () => {
    const owner = await personOf(company.id, 'owner');
    const admin = await personOf(company.id, 'admin');
    const page = await owner.client.get(`/app/audit?user=${admin.id}`);
    expect(page.status).toBe(200);
    const rows = rowsIn(page.body);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.startsWith(admin.name)).toBe(true);
    expect(page.body).toContain(`<option value="${admin.id}" selected>`);
    const both = await owner.client.get(`/app/audit?user=${admin.id}&group=keys`);
    expect(both.body).toContain('Nothing recorded matches these filters.');
  });

  it('a filter that cannot be read answers 400 with the form marked, and no rows', async () => {
    const owner = await personOf(company.id, 'owner');
    const stranger = await personOf(other.id, 'owner');
    for (const query of [
      'group=everything',
      'user=not-a-uuid',
      `user=${stranger.id}`,
      `user=${crypto.randomUUID()}`,
      'before=0',
      'before=abc',
      'after=-1',
      'before=1234567890123456',
      'before=5&after=3',
    ]) {
      const page = await owner.client.get(`/app/audit?${query}`);
      expect(page.status, query).toBe(400);
      expect(page.body).toContain('id="audit-filters-error" role="alert"');
      if (query.startsWith('group') || query.startsWith('user')) expect(page.body).toContain('aria-invalid="true"');
      expect(kindsIn(page.body)).toEqual([]);
    }
    // At the bound: the largest cursor read is 15 digits.
    expect((await owner.client.get('/app/audit?before=999999999999999')).status).toBe(200);
  });
});

describe('pages of 50, keyset on the order rows were written in', () => {
  async function companyWithRows(count: number) {
    const fresh = await createTestCompany(stack);
    const rows = Array.from({ length: count }, (_, i) => ({
      companyId: fresh.id,
      kind: 'user.signed_out' as const,
      actorType: 'system' as const,
      data: { n: i },
      // One time for all: the order is the written one, not the time's.
      createdAt: new Date('2026-01-01T00:00:00Z'),
    }));
    await stack.services.database.db.insert(auditEvents).values(rows);
    const owner = await personOf(fresh.id, 'owner');
    return { fresh, owner, count: count + 2 }; // and the owner's key made with the company, and the sign-in
  }

  it('walks older and back newer, each row once, newest first', async () => {
    const { owner, count } = await companyWithRows(118);
    const seen: string[] = [];
    let page = await owner.client.get('/app/audit');
    expect(hrefOf(page.body, 'prev')).toBeUndefined();
    const firstKinds = kindsIn(page.body);
    expect(firstKinds).toHaveLength(50);
    expect(firstKinds[0]).toBe('user.signed_in');
    const datas = (body: string) => [...body.matchAll(/<tr data-kind="[^"]+">/g)].length;
    seen.push(...rowsIn(page.body));
    const pages = [page.body];
    for (;;) {
      const older = hrefOf(page.body, 'next');
      if (!older) break;
      page = await owner.client.get(older);
      expect(page.status).toBe(200);
      pages.push(page.body);
      seen.push(...rowsIn(page.body));
    }
    expect(pages.map(datas)).toEqual([50, 50, 20]);
    expect(seen).toHaveLength(count);
    // Back from the last page: the newer link shows the page before it.
    const newer = hrefOf(page.body, 'prev');
    expect(newer).toBeDefined();
    const back = await owner.client.get(newer!);
    expect(kindsIn(back.body)).toHaveLength(50);
    expect(back.body.match(/<tr data-kind/g)?.length).toBe(50);
    expect(hrefOf(back.body, 'next')).toBe(hrefOf(pages[1]!, 'next'));
  });

  it('exactly 50 rows are one page; 51 are two', async () => {
    const fifty = await companyWithRows(48);
    const one = await fifty.owner.client.get('/app/audit');
    expect(kindsIn(one.body)).toHaveLength(50);
    expect(hrefOf(one.body, 'next')).toBeUndefined();
    const fiftyOne = await companyWithRows(49);
    const first = await fiftyOne.owner.client.get('/app/audit');
    expect(kindsIn(first.body)).toHaveLength(50);
    const second = await fiftyOne.owner.client.get(hrefOf(first.body, 'next')!);
    expect(kindsIn(second.body)).toHaveLength(1);
    expect(hrefOf(second.body, 'next')).toBeUndefined();
    // Past the end: said so, with the way back.
    const past = await fiftyOne.owner.client.get('/app/audit?before=1');
    expect(past.status).toBe(200);
    expect(past.body).toContain('There is nothing more here.');
  });
});

describe('who may read it', () => {
  it('owners and administrators only; the others get a page saying so, and a post is not a way in', async () => {
    for (const role of ['member', 'viewer'] as const) {
      const person = await personOf(company.id, role);
      const page = await person.client.get('/app/audit');
      expect(page.status, role).toBe(403);
      expect(page.body).toContain('Only owners and administrators see the audit log');
      expect(page.body).not.toContain('data-kind=');
      expect(page.body).not.toContain('href="/app/audit"');
      const forged = await person.client.post('/app/audit', { group: 'keys' });
      expect(forged.status).toBe(405);
      expect(forged.body).not.toContain('data-kind=');
    }
    const admin = await personOf(company.id, 'admin');
    expect((await admin.client.get('/app/audit')).status).toBe(200);
    const signedOut = await appClient(stack).get('/app/audit');
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe('/app');
  });

  it("another company's rows never appear, on any page or filter", async () => {
    const stranger = await personOf(other.id, 'owner');
    const theirKey = await makeAndRevokeKey(stranger.client, stranger.id);
    const owner = await personOf(company.id, 'owner');
    for (const query of ['', '?group=keys', '?group=sign-ins', `?user=${owner.id}`]) {
      let path: string | undefined = `/app/audit${query}`;
      while (path) {
        const page = await owner.client.get(path);
        expect(page.body).not.toContain(theirKey);
        expect(page.body).not.toContain(stranger.name);
        path = hrefOf(page.body, 'next');
      }
    }
    const theirs = await stranger.client.get('/app/audit?group=keys');
    expect(theirs.body).toContain(theirKey);
    const rows = await stack.services.database.db.select({ companyId: auditEvents.companyId }).from(auditEvents).where(eq(auditEvents.actorId, stranger.id));
    expect(rows.every((row) => row.companyId === other.id)).toBe(true);
  });
});

describe('every kind reads', () => {
  const m = appMessages();
  const entry = (kind: string): AuditEntry => ({
    seq: 1,
    kind: kind as AuditEntry['kind'],
    actorType: 'user',
    actorId: null,
    actorName: 'Pat',
    recipientName: null,
    subjectKey: null,
    envelopeId: null,
    envelopeTitle: null,
    data: {},
    at: new Date(),
  });

  it.each([...auditKinds])('%s has its own words or the sentence naming it', (kind) => {
    const sentence = auditSentence(m, entry(kind));
    expect(sentence.trim()).not.toBe('');
    if (!sentenceKeyOf(kind)) expect(sentence).toContain(kind);
  });

  it('names the user a change is about, and the roles in words', () => {
    expect(auditSentence(m, { ...entry('user.role_changed'), data: { email: 'ann@example.test', from: 'member', to: 'admin' } })).toBe(
      'Pat changed the role of ann@example.test from member to administrator',
    );
    expect(auditSentence(m, { ...entry('user.invited'), data: { email: 'bo@example.test', role: 'viewer' } })).toBe('Pat invited bo@example.test as viewer');
    expect(auditSentence(m, { ...entry('user.seat_changed'), data: { email: 'bo@example.test', from: true, to: false } })).toBe(
      'Pat took the e-signing seat of bo@example.test',
    );
  });

  it('a kind written since, without words, is named as it is stored', () => {
    expect(sentenceKeyOf('user.invited_elsewhere')).toBeNull();
    expect(auditSentence(m, entry('user.invited_elsewhere'))).toBe('Pat: user.invited_elsewhere');
    expect(auditSentence(m, { ...entry('settings.changed'), actorType: 'system' })).toBe('The service: settings.changed');
    expect(sentenceKeyOf('other')).toBeNull();
  });
});
