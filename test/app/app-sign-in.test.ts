/**
 * Signing in to the company application over the real stack: a link by e-mail without telling who
 * has an account, the limits, the link spent once within 15 minutes, the session's cookie and its
 * ends (sign-out, idle, absolute, the user deactivated or given another role), the choice of
 * company, and the defences of its forms. Sessions are for people, bearer tokens for programs.
 *
 * One file although long: its cases share one stack and its companies, and read as one walk
 * through the feature; split, each part would open a stack of its own.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_CSP } from '../../src/company-app/security.js';
import { appSessions, auditEvents, signInLinks, users } from '../../src/data/schema.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { type AppClient, appClient, formTokenIn, freshEmail, settled, signIn, signInLinksTo } from '../support/app-client.js';
import { eventually } from '../support/eventually.js';
import { asOperator, createTestCompany, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

const HOUR = 3600 * 1000;
const pathOf = (link: string) => new URL(link).pathname;
const setUser = (companyId: string, email: string, role: 'owner' | 'admin' | 'member' | 'viewer' = 'owner', active = true, name = 'Pat Person') =>
  putUser(asOperator(stack, companyId), { email, input: { name, role, active, esign_seat: true } });

async function userOf(role: 'owner' | 'admin' | 'member' | 'viewer' = 'admin') {
  const email = freshEmail(role);
  const { user } = await setUser(company.id, email, role);
  return { email, user };
}

async function signedIn(role: 'owner' | 'admin' | 'member' | 'viewer' = 'admin') {
  const who = await userOf(role);
  const client = appClient(stack);
  const answer = await signIn(stack, client, who.email);
  expect(answer.status).toBe(303);
  return { ...who, client };
}

const auditOf = (companyId: string, userId: string) =>
  stack.services.database.db
    .select({ kind: auditEvents.kind, actorType: auditEvents.actorType, data: auditEvents.data })
    .from(auditEvents)
    .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.actorId, userId)))
    .orderBy(desc(auditEvents.createdAt));

const isSignInPage = (page: string) => page.includes('action="/app/sign-in"') && page.includes('name="email"');

describe('asking for a sign-in link', () => {
  it('shows the sign-in page, with the security headers, to a browser signed out', async () => {
    const client = appClient(stack);
    const page = await client.get('/app');
    expect(page.status).toBe(200);
    expect(isSignInPage(page.body)).toBe(true);
    expect(page.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(APP_CSP).toContain("default-src 'none'");
    expect(APP_CSP).not.toMatch(/https?:|unsafe-inline/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(formTokenIn(page.body)).not.toBe('');
  });

  it('answers the same for a user and for a stranger, and e-mails only the user one single-use link, stored hashed', async () => {
    const { email } = await userOf();
    const stranger = freshEmail('stranger');
    const asUser = appClient(stack);
    const asStranger = appClient(stack);
    await asUser.get('/app');
    await asStranger.get('/app');
    const [toUser, toStranger] = [await asUser.post('/app/sign-in', { email }), await asStranger.post('/app/sign-in', { email: stranger })];
    expect(toUser.status).toBe(200);
    expect(toStranger.status).toBe(toUser.status);
    expect(toStranger.body.replaceAll(stranger, 'ADDRESS')).toBe(toUser.body.replaceAll(email, 'ADDRESS'));
    expect(toUser.body).toContain('Check your e-mail');
    await settled(stack);
    expect(signInLinksTo(stack, stranger)).toEqual([]);
    const links = signInLinksTo(stack, email);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(new RegExp(`^${BASE_URL}/app/sign-in/[A-Za-z0-9_-]{43}$`));
    const token = links[0]!.split('/').at(-1)!;
    const rows = await stack.services.database.db.select().from(signInLinks).where(eq(signInLinks.email, email));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(15 * 60 * 1000);
  });

  it('asks again for an address that is not one, without sending anything', async () => {
    const client = appClient(stack);
    await client.get('/app');
    const answer = await client.post('/app/sign-in', { email: 'not an address' });
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('aria-invalid="true"');
    expect(answer.body).toContain('Enter an e-mail address');
  });

  it('sends five links to one address in 15 minutes, and past that the same page but no e-mail, and logs it', async () => {
    const { email } = await userOf();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const client = appClient(stack);
        await client.get('/app');
        answers.push(await client.post('/app/sign-in', { email: i % 2 === 0 ? email : email.toUpperCase() }));
      }
      await settled(stack);
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
      expect(answers[5]!.body.replaceAll(email.toUpperCase(), email)).toBe(answers[4]!.body);
      expect(signInLinksTo(stack, email)).toHaveLength(5);
      expect(logged.mock.calls.flat().join(' ')).toContain('too many requests for one address');
      // The window passes: the address may ask again.
      stack.clock.advance(15 * 60 * 1000);
      const client = appClient(stack);
      await client.get('/app');
      await client.post('/app/sign-in', { email });
      await settled(stack);
      expect(signInLinksTo(stack, email)).toHaveLength(6);
    } finally {
      logged.mockRestore();
    }
  });

  it('takes twenty requests from one client address in 15 minutes, and past that sends nothing', async () => {
    const { email } = await userOf();
    const client = appClient(stack, '192.0.2.77');
    await client.get('/app');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (let i = 0; i < 20; i++) {
        await client.get('/app');
        expect((await client.post('/app/sign-in', { email: freshEmail('nobody') })).status).toBe(200);
      }
      await client.get('/app');
      const past = await client.post('/app/sign-in', { email });
      expect(past.status).toBe(200);
      expect(past.body).toContain('Check your e-mail');
      await settled(stack);
      expect(signInLinksTo(stack, email)).toEqual([]);
      expect(logged.mock.calls.flat().join(' ')).toContain('too many requests for one client address');
    } finally {
      logged.mockRestore();
    }
  });
});

describe('the link of the e-mail', () => {
  async function linkFor(email: string) {
    const client = appClient(stack);
    await client.get('/app');
    await client.post('/app/sign-in', { email });
    await settled(stack);
    return { client, path: pathOf(signInLinksTo(stack, email)[0]!) };
  }

  it('shows a button on GET, which spends nothing; its post signs in with the session cookie, once', async () => {
    const { email } = await userOf('member');
    const { client, path } = await linkFor(email);
    for (let i = 0; i < 2; i++) {
      const shown = await client.get(path);
      expect(shown.status).toBe(200);
      expect(shown.body).toContain(`action="${path}"`);
      expect(shown.body).toContain(email);
    }
    const spent = await client.post(path);
    expect(spent.status).toBe(303);
    expect(spent.headers.get('location')).toBe('/app');
    const home = await client.get('/app');
    expect(home.body).toContain(company.name);
    expect(home.body).toContain('Member');

    const again = appClient(stack);
    const reused = await again.get(path);
    expect(reused.status).toBe(410);
    expect(reused.body).toContain('This link no longer works');
    expect(reused.body).toContain('href="/app"');
    // Posted again from the page it showed before: still refused, no session.
    const repost = await client.post(path);
    expect(repost.status).toBe(410);
  });

  it('no longer works 15 minutes after it was sent, nor when it is unknown', async () => {
    const { email } = await userOf();
    const { client, path } = await linkFor(email);
    await client.get(path);
    stack.clock.advance(15 * 60 * 1000);
    expect((await client.post(path)).status).toBe(410);
    expect((await client.get(path)).status).toBe(410);
    expect((await client.get(`/app/sign-in/${'A'.repeat(43)}`)).status).toBe(410);
    expect((await client.get('/app/sign-in/short')).status).toBe(410);
    expect(client.jar.has('__Host-esign_session')).toBe(false);
  });

  it('works at 14 minutes 59 seconds', async () => {
    const { email } = await userOf();
    const { client, path } = await linkFor(email);
    await client.get(path);
    stack.clock.advance(15 * 60 * 1000 - 1000);
    expect((await client.post(path)).status).toBe(303);
  });
});

describe('the session', () => {
  it("sets a __Host- cookie, HttpOnly, Secure, SameSite=Lax, Path=/, and keeps only the id's hash", async () => {
    const { client, user } = await signedIn();
    const cookie = client.cookies.find((each) => each.name === '__Host-esign_session');
    expect(cookie).toBeDefined();
    const attributes = cookie!.attributes.map((attribute) => attribute.toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite=lax', 'path=/']));
    expect(attributes.some((attribute) => attribute.startsWith('domain'))).toBe(false);
    const rows = await stack.services.database.db.select().from(appSessions).where(eq(appSessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(cookie!.value);
    expect((await auditOf(company.id, user.id)).map((row) => [row.kind, row.actorType])).toEqual([['user.signed_in', 'user']]);
  });

  it('uses a plain cookie without Secure when the service is plain HTTP on the loopback address', async () => {
    const { email } = await userOf();
    const { config } = stack.services;
    const baseUrl = config.baseUrl;
    config.baseUrl = 'http://127.0.0.1:8787';
    try {
      const client = appClient(stack);
      await client.get('/app');
      await client.post('/app/sign-in', { email }, { origin: 'http://127.0.0.1:8787', 'sec-fetch-site': 'same-origin' });
      await settled(stack);
      const link = signInLinksTo(stack, email)[0]!;
      expect(link.startsWith('http://127.0.0.1:8787/app/sign-in/')).toBe(true);
      await client.get(pathOf(link));
      const spent = await client.post(pathOf(link), {}, { origin: 'http://127.0.0.1:8787', 'sec-fetch-site': 'same-origin' });
      expect(spent.status).toBe(303);
      const cookie = client.cookies.find((each) => each.name === 'esign_session')!;
      expect(cookie).toBeDefined();
      const attributes = cookie.attributes.map((attribute) => attribute.toLowerCase());
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      expect(attributes).not.toContain('secure');
      expect(client.cookies.some((each) => each.name.startsWith('__Host-'))).toBe(false);
    } finally {
      config.baseUrl = baseUrl;
    }
  });

  it('ends on sign-out: the cookie goes, the old one signs nobody in, and the audit says so', async () => {
    const { client, user } = await signedIn();
    const cookie = client.jar.get('__Host-esign_session')!;
    await client.get('/app');
    const out = await client.post('/app/sign-out');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/app?signed-out');
    expect(client.jar.has('__Host-esign_session')).toBe(false);
    const after = await client.get('/app?signed-out');
    expect(isSignInPage(after.body)).toBe(true);
    expect(after.body).toContain('You have signed out.');
    const replayed = await call<string>(stack, 'GET', '/app', { headers: { cookie: `__Host-esign_session=${cookie}` } });
    expect(isSignInPage(replayed.body)).toBe(true);
    expect((await auditOf(company.id, user.id)).map((row) => row.kind).sort()).toEqual(['user.signed_in', 'user.signed_out']);
  });

  it('ends after 12 idle hours, and lives while it is used', async () => {
    const { client } = await signedIn();
    stack.clock.advance(11 * HOUR);
    expect((await client.get('/app')).body).toContain('Overview');
    stack.clock.advance(11 * HOUR);
    expect((await client.get('/app')).body).toContain('Overview');
    stack.clock.advance(12 * HOUR);
    const ended = await client.get('/app');
    expect(isSignInPage(ended.body)).toBe(true);
    expect(ended.body).toContain('Your session has ended');
    expect(client.jar.has('__Host-esign_session')).toBe(false);
  });

  it('ends 7 days after it began, however much it is used', async () => {
    const { client } = await signedIn();
    for (let hours = 0; hours + 11 < 7 * 24; hours += 11) {
      stack.clock.advance(11 * HOUR);
      expect((await client.get('/app')).body).toContain('Overview');
    }
    stack.clock.advance(11 * HOUR);
    expect(isSignInPage((await client.get('/app')).body)).toBe(true);
  });

  it('ends on the next request after its user is deactivated, removed, or given another role', async () => {
    const deactivated = await signedIn('admin');
    await setUser(company.id, deactivated.email, 'admin', false);
    const page = await deactivated.client.get('/app');
    expect(isSignInPage(page.body)).toBe(true);
    expect(page.body).toContain('Your session has ended');
    const ended = (await auditOf(company.id, deactivated.user.id)).find((row) => row.kind === 'user.session_ended');
    expect(ended).toMatchObject({ kind: 'user.session_ended', actorType: 'user', data: { reason: 'user_deactivated' } });

    const demoted = await signedIn('admin');
    await setUser(company.id, demoted.email, 'viewer');
    expect(isSignInPage((await demoted.client.get('/app')).body)).toBe(true);
    expect((await auditOf(company.id, demoted.user.id)).find((row) => row.kind === 'user.session_ended')).toMatchObject({
      kind: 'user.session_ended',
      data: { reason: 'role_changed' },
    });
    // Removed outright (no verb removes a user yet; a row deleted by hand is the same to a session).
    const removed = await signedIn('member');
    await stack.services.database.db.delete(users).where(eq(users.id, removed.user.id));
    expect(isSignInPage((await removed.client.get('/app')).body)).toBe(true);
    expect((await auditOf(company.id, removed.user.id)).find((row) => row.kind === 'user.session_ended')).toMatchObject({ data: { reason: 'user_removed' } });

    // Signed in again, the new role is the session's.
    await signIn(stack, demoted.client, demoted.email);
    expect((await demoted.client.get('/app')).body).toContain('Viewer');
  });
});

describe('a person in two companies', () => {
  let second: TestCompany;
  beforeAll(async () => {
    second = await createTestCompany(stack);
  });

  it('chooses the company after the link, may switch later, and cannot choose a user of someone else', async () => {
    const email = freshEmail('both');
    const first = await setUser(company.id, email, 'viewer');
    const other = await setUser(second.id, email, 'owner');
    const client = appClient(stack);
    expect((await signIn(stack, client, email)).status).toBe(303);
    const choice = await client.get('/app');
    expect(choice.body).toContain('Choose a company');
    expect(choice.body).toContain(company.name);
    expect(choice.body).toContain(second.name);

    // Another person's user, in a company of theirs: as unknown as a made-up id.
    const stranger = await setUser(second.id, freshEmail('stranger'), 'owner');
    for (const userId of [stranger.user.id, crypto.randomUUID(), 'not-an-id']) {
      await client.get('/app');
      const refused = await client.post('/app/company', { user_id: userId });
      expect(refused.status).toBe(404);
    }
    await client.get('/app');
    expect((await client.post('/app/company', { user_id: other.user.id })).status).toBe(303);
    const home = await client.get('/app');
    expect(home.body).toContain(second.name);
    expect(home.body).toContain('Owner');
    expect(home.body).toContain('href="/app/company"');

    await client.get('/app/company');
    expect((await client.post('/app/company', { user_id: first.user.id })).status).toBe(303);
    const switched = await client.get('/app');
    expect(switched.body).toContain(company.name);
    expect(switched.body).toContain('Viewer');
    expect((await auditOf(second.id, other.user.id)).map((row) => row.kind).sort()).toEqual(['user.signed_in', 'user.signed_out']);
  });
});

describe('the forms', () => {
  let client: AppClient;
  beforeAll(async () => ({ client } = await signedIn()));

  it('refuse a post from another site, by Origin or by Sec-Fetch-Site', async () => {
    await client.get('/app');
    const evilOrigin = await client.post('/app/sign-out', {}, { origin: 'https://evil.example' });
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.body).toContain('This form cannot be sent');
    expect(evilOrigin.headers.get('content-security-policy')).toBe(APP_CSP);
    await client.get('/app');
    expect((await client.post('/app/sign-out', {}, { 'sec-fetch-site': 'cross-site', origin: 'null' })).status).toBe(403);
    await client.get('/app');
    expect((await client.post('/app/sign-in', { email: freshEmail() }, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await client.get('/app')).body).toContain('Overview');
  });

  it('refuse a post without the form token, or with another one', async () => {
    await client.get('/app');
    expect((await client.post('/app/sign-out', { form_token: '' })).status).toBe(403);
    expect((await client.post('/app/sign-out', { form_token: 'A'.repeat(43) })).status).toBe(403);
    // The token of another browser's page is not this session's.
    const other = appClient(stack);
    const page = await other.get('/app');
    expect((await client.post('/app/sign-out', { form_token: formTokenIn(page.body) })).status).toBe(403);
    expect((await client.get('/app')).body).toContain('Overview');
  });

  it('refuse a signed-out post without the cookie its page set', async () => {
    const browser = appClient(stack);
    const page = await browser.get('/app');
    const bare = await call<string>(stack, 'POST', '/app/sign-in', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      rawBody: new URLSearchParams({ form_token: formTokenIn(page.body), email: freshEmail() }).toString(),
    });
    expect(bare.status).toBe(403);
  });
});

describe('sessions for people, bearer tokens for programs', () => {
  it('/app ignores a bearer token, and /v1 and /admin/v1 ignore the session cookie', async () => {
    const bearer = await call<string>(stack, 'GET', '/app', { token: company.owner.token });
    expect(bearer.status).toBe(200);
    expect(isSignInPage(bearer.body)).toBe(true);
    const adminBearer = await call<string>(stack, 'GET', '/app', { token: ADMIN_TOKEN });
    expect(isSignInPage(adminBearer.body)).toBe(true);

    const { client } = await signedIn('owner');
    const cookie = `__Host-esign_session=${client.jar.get('__Host-esign_session')}`;
    const v1 = await call(stack, 'GET', '/v1/templates', { headers: { cookie } });
    expect(v1.status).toBe(401);
    expect(v1.body.error.code).toBe('unauthorized');
    const admin = await call(stack, 'GET', '/admin/v1/companies', { headers: { cookie } });
    expect(admin.status).toBe(401);
  });
});

describe('other paths and methods', () => {
  it('answer with pages: 404 for an unknown path, 405 with Allow for another method', async () => {
    const client = appClient(stack);
    const unknown = await client.get('/app/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Page not found');
    expect(unknown.headers.get('content-security-policy')).toBe(APP_CSP);
    const wrong = await call<string>(stack, 'PUT', '/app/sign-out', { headers: { 'sec-fetch-site': 'same-origin' } });
    expect([403, 405]).toContain(wrong.status);
    await vi.waitFor(() => expect(stack.afterAnswers?.size ?? 0).toBe(0), eventually);
  });
});
