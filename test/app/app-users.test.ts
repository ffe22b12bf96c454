/**
 * One file although long: the users pages' rules share one stack, and each rule is a short test.
 *
 * The application's users pages over the real stack: owners and administrators list the company's
 * users, invite a person (the invitation a sign-in link, once, 15 minutes, into the inviting
 * company), change a user's role and seat, deactivate and reactivate them; the user's sessions end
 * on their next request; the company keeps an active owner, also under two concurrent posts; only
 * an owner touches the owner role; other roles are refused, on the pages and on forged posts;
 * another company's user is not found; bad forms are shown again and change nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, signInLinks, type UserRole, users } from '../../src/data/schema.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { type AppClient, appClient, freshEmail, settled, signIn } from '../support/app-client.js';
import { asOperator, createTestCompany, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  [company, other] = [await createTestCompany(stack), await createTestCompany(stack)];
});
afterAll(() => stack.close());

const MINUTE = 60 * 1000;

async function userOf(role: UserRole, companyId = company.id, options: { active?: boolean; email?: string } = {}) {
  const email = options.email ?? freshEmail(role);
  const { user } = await putUser(asOperator(stack, companyId), {
    email,
    input: { name: `Pat ${role}`, role, active: options.active ?? true, esign_seat: false },
  });
  return { email, user };
}

async function signedIn(role: UserRole, companyId = company.id) {
  const who = await userOf(role, companyId);
  const client = appClient(stack);
  expect((await signIn(stack, client, who.email)).status).toBe(303);
  return { ...who, client };
}

/** Posts a form from the page at `from` (its form token), as the page's own form would. */
async function postFrom(client: AppClient, from: string, path: string, fields: Record<string, string> = {}) {
  await client.get(from);
  return client.post(path, fields);
}

const rowOf = async (id: string) => (await stack.services.database.db.select().from(users).where(eq(users.id, id)))[0];
const usersOf = (companyId: string) => stack.services.database.db.select().from(users).where(eq(users.companyId, companyId));
const auditAbout = async (companyId: string, userId: string) =>
  (await stack.services.database.db.select().from(auditEvents).where(eq(auditEvents.companyId, companyId)))
    .filter((row) => row.data.user_id === userId)
    .map((row) => ({ kind: row.kind, actorType: row.actorType, actorId: row.actorId, data: row.data }));
const isSignInPage = (page: string) => page.includes('action="/app/sign-in"');
/** The page a browser ends on from `path`, following the redirect a page of a signed-out person answers. */
async function landing(client: AppClient, path: string) {
  const answer = await client.get(path);
  return answer.status === 303 ? client.get(answer.headers.get('location')!) : answer;
}
const invitationsTo = (email: string) => stack.services.mailbox.list().filter((mail) => mail.to.email === email && mail.tags?.kind === 'app_invitation');
const linkIn = (text: string) => {
  const url = /https?:\/\/\S+\/app\/sign-in\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  if (!url) throw new Error('No link in the invitation');
  return new URL(url).pathname;
};

/** A company of its own, with its key holder (an owner) and a signed-in owner: the owner rules count owners. */
async function companyWithTwoOwners() {
  const own = await createTestCompany(stack);
  const owner = await signedIn('owner', own.id);
  const [holder] = (await usersOf(own.id)).filter((row) => row.id !== owner.user.id);
  return { own, owner, holder: holder! };
}

describe('the users list', () => {
  it('shows an owner every user of the company, and no other company’s', async () => {
    const owner = await signedIn('owner');
    const gone = await userOf('viewer', company.id, { active: false });
    const stranger = await userOf('member', other.id);
    const home = await owner.client.get('/app');
    expect(home.body).toContain('href="/app/users"');
    const list = await owner.client.get('/app/users');
    expect(list.status).toBe(200);
    expect(list.body).toContain(`href="/app/users/${owner.user.id}"`);
    expect(list.body).toContain(owner.email);
    expect(list.body).toContain(gone.email);
    expect(list.body).toContain('Deactivated');
    expect(list.body).toContain('Viewer');
    expect(list.body).not.toContain(stranger.email);
  });

  it.each(['member', 'viewer'] as const)('refuses a %s: no navigation entry, the pages 403, and forged posts change nothing', async (role) => {
    const person = await signedIn(role);
    const target = await userOf('member');
    expect((await person.client.get('/app')).body).not.toContain('href="/app/users"');
    for (const path of ['/app/users', '/app/users/new', `/app/users/${target.user.id}`, `/app/users/${target.user.id}/deactivate`]) {
      const page = await person.client.get(path);
      expect(page.status, path).toBe(403);
      expect(page.body).toContain('Only owners and administrators manage users');
    }
    const email = freshEmail('forged');
    expect((await postFrom(person.client, '/app', '/app/users', { name: 'Forged', email, role: 'owner' })).status).toBe(403);
    expect((await postFrom(person.client, '/app', `/app/users/${target.user.id}`, { role: 'owner' })).status).toBe(403);
    expect((await postFrom(person.client, '/app', `/app/users/${target.user.id}/deactivate`)).status).toBe(403);
    expect((await postFrom(person.client, '/app', `/app/users/${person.user.id}`, { role: 'owner' })).status).toBe(403);
    expect((await usersOf(company.id)).some((row) => row.email === email)).toBe(false);
    expect(await rowOf(target.user.id)).toMatchObject({ role: 'member', active: true });
    expect(await rowOf(person.user.id)).toMatchObject({ role });
  });

  it('sends a signed-out browser to sign in', async () => {
    const answer = await appClient(stack).get('/app/users');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/app');
  });
});

describe('inviting a person', () => {
  it('makes the user and e-mails a link that signs them in to this company, once, even when the address is a user of another', async () => {
    const owner = await signedIn('owner');
    const email = freshEmail('invited');
    // The same address is already a user of another company: the invitation still opens this one.
    await userOf('viewer', other.id, { email });
    const form = await owner.client.get('/app/users/new');
    expect(form.status).toBe(200);
    expect(form.body).toContain('<option value="owner"');
    const invited = await owner.client.post('/app/users', { name: 'Robin Invited', email, role: 'member', esign_seat: 'yes' });
    expect(invited.status).toBe(303);
    const [row] = (await usersOf(company.id)).filter((user) => user.email === email);
    expect(row).toMatchObject({ name: 'Robin Invited', role: 'member', esignSeat: true, active: true });
    expect(invited.headers.get('location')).toBe(`/app/users/${row!.id}?done=invited`);
    expect((await owner.client.get(invited.headers.get('location')!)).body).toContain(`The invitation is on its way to ${email}`);
    expect(await auditAbout(company.id, row!.id)).toEqual([
      {
        kind: 'user.invited',
        actorType: 'user',
        actorId: owner.user.id,
        data: expect.objectContaining({ user_id: row!.id, email, role: 'member', esign_seat: true }),
      },
    ]);

    await settled(stack);
    const [mail, ...more] = invitationsTo(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Pat owner invited you to ${company.name}`);
    expect(mail!.text).toContain('works once, within 15 minutes');
    const path = linkIn(mail!.text);
    const token = path.split('/').at(-1)!;
    const [link] = await stack.services.database.db.select().from(signInLinks).where(eq(signInLinks.userId, row!.id));
    expect(link!.tokenHash).not.toContain(token);
    expect(JSON.stringify(link)).not.toContain(token);

    // Opening the link (as a mail scanner would) spends nothing; the button's post does, once.
    const person = appClient(stack);
    for (let i = 0; i < 2; i++) {
      const page = await person.get(path);
      expect(page.status).toBe(200);
      expect(page.body).toContain(`action="${path}"`);
    }
    const spent = await person.post(path);
    expect(spent.status).toBe(303);
    const home = await person.get('/app');
    expect(home.body).toContain(company.name);
    expect(home.body).not.toContain('Choose a company');
    expect((await person.post(path)).status).toBe(410);
    expect((await appClient(stack).get(path)).status).toBe(410);
  });

  it('has a link that works within its 15 minutes and not at their end', async () => {
    const owner = await signedIn('owner');
    const [early, late] = [freshEmail('early'), freshEmail('late')];
    for (const email of [early, late]) {
      expect((await postFrom(owner.client, '/app/users/new', '/app/users', { name: 'On time', email, role: 'viewer' })).status).toBe(303);
    }
    await settled(stack);
    const [earlyPath, latePath] = [linkIn(invitationsTo(early)[0]!.text), linkIn(invitationsTo(late)[0]!.text)];
    const [person, latecomer] = [appClient(stack), appClient(stack)];
    expect((await latecomer.get(latePath)).status).toBe(200);
    stack.clock.advance(15 * MINUTE - 1000);
    expect((await person.get(earlyPath)).status).toBe(200);
    expect((await person.post(earlyPath)).status).toBe(303);
    stack.clock.advance(1000);
    // The button of a page opened in time, pressed at the 15th minute, is too late.
    expect((await latecomer.post(latePath)).status).toBe(410);
    expect((await latecomer.get(latePath)).status).toBe(410);
  });

  it('shows the form again with what is wrong, and makes and sends nothing', async () => {
    const owner = await signedIn('owner');
    const existing = await userOf('member');
    const deactivated = await userOf('viewer', company.id, { active: false });
    const before = (await usersOf(company.id)).length;
    const cases = [
      { fields: { name: '', email: freshEmail(), role: 'member' }, says: 'Enter a name' },
      { fields: { name: 'x'.repeat(121), email: freshEmail(), role: 'member' }, says: 'Enter a name' },
      { fields: { name: 'Two\nlines', email: freshEmail(), role: 'member' }, says: 'Enter a name' },
      { fields: { name: 'No address', email: 'not-an-address', role: 'member' }, says: 'Enter an e-mail address' },
      { fields: { name: 'Long address', email: `${'a'.repeat(138)}@example.test`, role: 'member' }, says: 'Enter an e-mail address' },
      { fields: { name: 'Odd role', email: freshEmail(), role: 'superuser' }, says: 'Choose a role' },
      { fields: { name: 'Taken', email: existing.email.toUpperCase(), role: 'member' }, says: 'already a user of the company' },
      { fields: { name: 'Taken', email: deactivated.email, role: 'member' }, says: 'already a user of the company' },
    ];
    for (const { fields, says } of cases) {
      const answer = await postFrom(owner.client, '/app/users/new', '/app/users', fields);
      expect(answer.status, `${fields.name} ${fields.email}`).toBe(422);
      expect(answer.body).toContain(says);
      expect(answer.body).toContain('field-invalid');
    }
    expect((await usersOf(company.id)).length).toBe(before);
    await settled(stack);
    for (const { fields } of cases) expect(invitationsTo(fields.email)).toEqual([]);
    // At the bounds: a name of 120 characters and an address of 150 are made.
    const longest = `${'b'.repeat(137)}@example.test`;
    expect(longest).toHaveLength(150);
    expect((await postFrom(owner.client, '/app/users/new', '/app/users', { name: 'y'.repeat(120), email: longest, role: 'viewer' })).status).toBe(303);
    expect((await usersOf(company.id)).length).toBe(before + 1);
  });

  it('lets an administrator invite anyone but an owner', async () => {
    const admin = await signedIn('admin');
    const form = await admin.client.get('/app/users/new');
    expect(form.body).not.toContain('<option value="owner"');
    const email = freshEmail('would-be-owner');
    const refused = await admin.client.post('/app/users', { name: 'Would-be owner', email, role: 'owner' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Only an owner may do this');
    expect((await usersOf(company.id)).some((row) => row.email === email)).toBe(false);
    expect((await postFrom(admin.client, '/app/users/new', '/app/users', { name: 'An admin', email, role: 'admin' })).status).toBe(303);
  });
});

describe("a user's page", () => {
  it('changes role and seat, audited, and the user’s session ends on its next request', async () => {
    const owner = await signedIn('owner');
    const member = await signedIn('member');
    const page = await owner.client.get(`/app/users/${member.user.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(member.email);
    const changed = await owner.client.post(`/app/users/${member.user.id}`, { role: 'viewer', esign_seat: 'yes' });
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toBe(`/app/users/${member.user.id}?done=changed`);
    expect(await rowOf(member.user.id)).toMatchObject({ role: 'viewer', esignSeat: true });
    expect(await auditAbout(company.id, member.user.id)).toEqual([
      { kind: 'user.role_changed', actorType: 'user', actorId: owner.user.id, data: expect.objectContaining({ from: 'member', to: 'viewer' }) },
      { kind: 'user.seat_changed', actorType: 'user', actorId: owner.user.id, data: expect.objectContaining({ from: false, to: true }) },
    ]);
    const next = await member.client.get('/app');
    expect(isSignInPage(next.body)).toBe(true);
    expect(next.body).toContain('Your session has ended');

    // The same values again change nothing and write no row.
    const again = await postFrom(owner.client, `/app/users/${member.user.id}`, `/app/users/${member.user.id}`, { role: 'viewer', esign_seat: 'yes' });
    expect(again.headers.get('location')).toBe(`/app/users/${member.user.id}?done=unchanged`);
    expect(await auditAbout(company.id, member.user.id)).toHaveLength(2);
    // An unknown role is refused and changes nothing.
    const odd = await postFrom(owner.client, `/app/users/${member.user.id}`, `/app/users/${member.user.id}`, { role: 'root' });
    expect(odd.status).toBe(422);
    expect(await rowOf(member.user.id)).toMatchObject({ role: 'viewer', esignSeat: true });
  });

  it('deactivates behind a confirmation, ends the session at once, and reactivates', async () => {
    const admin = await signedIn('admin');
    const viewer = await signedIn('viewer');
    const confirm = await admin.client.get(`/app/users/${viewer.user.id}/deactivate`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(`action="/app/users/${viewer.user.id}/deactivate"`);
    const done = await admin.client.post(`/app/users/${viewer.user.id}/deactivate`);
    expect(done.status).toBe(303);
    expect(await rowOf(viewer.user.id)).toMatchObject({ active: false });
    expect(isSignInPage((await landing(viewer.client, '/app/envelopes')).body)).toBe(true);
    const page = await admin.client.get(done.headers.get('location')!);
    expect(page.body).toContain('is deactivated');
    expect(page.body).toContain(`action="/app/users/${viewer.user.id}/reactivate"`);
    const back = await admin.client.post(`/app/users/${viewer.user.id}/reactivate`);
    expect(back.status).toBe(303);
    expect(await rowOf(viewer.user.id)).toMatchObject({ active: true });
    expect((await auditAbout(company.id, viewer.user.id)).map((row) => row.kind)).toEqual(['user.deactivated', 'user.reactivated']);
  });

  it('lets only an owner give or take the owner role, or change an owner', async () => {
    const admin = await signedIn('admin');
    const owner = await userOf('owner');
    const member = await userOf('member');
    const ownerPage = await admin.client.get(`/app/users/${owner.user.id}`);
    expect(ownerPage.status).toBe(200);
    expect(ownerPage.body).toContain('Only an owner may change an owner');
    expect(ownerPage.body).not.toContain(`action="/app/users/${owner.user.id}"`);
    expect((await admin.client.get(`/app/users/${owner.user.id}/deactivate`)).status).toBe(403);
    const forged = [
      [`/app/users/${owner.user.id}`, { role: 'member' }],
      [`/app/users/${owner.user.id}`, { role: 'owner', esign_seat: 'yes' }],
      [`/app/users/${owner.user.id}/deactivate`, {}],
      [`/app/users/${member.user.id}`, { role: 'owner' }],
      [`/app/users/${admin.user.id}`, { role: 'owner' }],
    ] as const;
    for (const [path, fields] of forged) {
      const answer = await postFrom(admin.client, `/app/users/${member.user.id}`, path, fields);
      expect(answer.status, path).toBe(403);
      expect(answer.body).toContain('Only an owner may do this');
    }
    expect(await rowOf(owner.user.id)).toMatchObject({ role: 'owner', active: true, esignSeat: false });
    expect(await rowOf(member.user.id)).toMatchObject({ role: 'member' });
    expect(await rowOf(admin.user.id)).toMatchObject({ role: 'admin' });
    // An owner may make an administrator owner.
    const promoter = await signedIn('owner');
    expect((await postFrom(promoter.client, `/app/users/${member.user.id}`, `/app/users/${member.user.id}`, { role: 'owner' })).status).toBe(303);
    expect(await rowOf(member.user.id)).toMatchObject({ role: 'owner' });
  });

  it("answers another company's user, an unknown id and a malformed one as not found, and changes nothing", async () => {
    const owner = await signedIn('owner');
    const stranger = await userOf('member', other.id);
    for (const id of [stranger.user.id, crypto.randomUUID(), 'not-a-user']) {
      expect((await owner.client.get(`/app/users/${id}`)).status).toBe(404);
      expect((await owner.client.get(`/app/users/${id}/deactivate`)).status).toBe(404);
      for (const [path, fields] of [
        [`/app/users/${id}`, { role: 'viewer' }],
        [`/app/users/${id}/deactivate`, {}],
        [`/app/users/${id}/reactivate`, {}],
      ] as const) {
        expect((await postFrom(owner.client, '/app/users', path, fields)).status, path).toBe(404);
      }
    }
    expect(await rowOf(stranger.user.id)).toMatchObject({ role: 'member', active: true });
  });
});

describe('the last owner', () => {
  it('cannot be demoted or deactivated, by themselves or anyone; another owner can', async () => {
    const { own, owner, holder } = await companyWithTwoOwners();
    // Two owners: the other one may be demoted.
    expect((await postFrom(owner.client, `/app/users/${holder.id}`, `/app/users/${holder.id}`, { role: 'admin' })).status).toBe(303);
    for (const [path, fields] of [
      [`/app/users/${owner.user.id}`, { role: 'admin' }],
      [`/app/users/${owner.user.id}`, { role: 'viewer', esign_seat: 'yes' }],
      [`/app/users/${owner.user.id}/deactivate`, {}],
    ] as const) {
      const refused = await postFrom(owner.client, `/app/users/${owner.user.id}`, path, fields);
      expect(refused.status, path).toBe(422);
      expect(refused.body).toContain('The company must keep at least one active owner');
    }
    expect(await rowOf(owner.user.id)).toMatchObject({ role: 'owner', active: true, esignSeat: false });
    expect((await auditAbout(own.id, owner.user.id)).map((row) => row.kind)).toEqual([]);
    // A seat change of the last owner is no demotion.
    expect((await postFrom(owner.client, `/app/users/${owner.user.id}`, `/app/users/${owner.user.id}`, { role: 'owner', esign_seat: 'yes' })).status).toBe(303);
  });

  it('holds under two concurrent posts that would each demote one of the last two owners', async () => {
    // A few rounds, each way round: on PostgreSQL (the integration run) the posts truly overlap.
    for (const round of [0, 1, 2, 3]) {
      const { own, owner, holder } = await companyWithTwoOwners();
      await owner.client.get(`/app/users/${holder.id}`);
      const demoteHolder = () => owner.client.post(`/app/users/${holder.id}`, { role: round % 2 === 0 ? 'member' : 'admin' });
      const deactivateSelf = () => owner.client.post(`/app/users/${owner.user.id}/deactivate`);
      const answers = await Promise.all(round < 2 ? [demoteHolder(), deactivateSelf()] : [deactivateSelf(), demoteHolder()]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([303, 422]);
      const owners = (await usersOf(own.id)).filter((row) => row.role === 'owner' && row.active);
      expect(owners).toHaveLength(1);
    }
  });

  it('lets a user change their own role when another owner remains; their session then ends', async () => {
    const { own, owner, holder } = await companyWithTwoOwners();
    const demoted = await postFrom(owner.client, `/app/users/${owner.user.id}`, `/app/users/${owner.user.id}`, { role: 'admin' });
    expect(demoted.status).toBe(303);
    expect(isSignInPage((await landing(owner.client, demoted.headers.get('location')!)).body)).toBe(true);
    expect(await rowOf(owner.user.id)).toMatchObject({ role: 'admin' });
    expect(await rowOf(holder.id)).toMatchObject({ role: 'owner', active: true });
    const ended = await stack.services.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, own.id), eq(auditEvents.kind, 'user.session_ended')));
    expect(ended.map((row) => row.data.reason)).toEqual(['role_changed']);
  });
});
