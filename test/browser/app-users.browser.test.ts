/**
 * The application's users in a real browser, on `npm start` and on `npm run dev` (the Worker in
 * workerd): the demo owner invites a person; the invitation's link from the dev mailbox signs that
 * person in, in a browser of their own, to the company; the owner makes them a viewer, and the
 * person's next page is the sign-in page (a change of role ends their session); the owner
 * deactivates them behind a confirmation. On a desktop and on a 390×844 phone, no serious or
 * critical axe violation on any page and nothing wider than the screen; screenshots in
 * test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { describe, expect, it, vi } from 'vitest';
import { APP_STACKS, type AppSession, appSession, DEVICES, deviceContext, pageCheck, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';
import { eventually } from '../support/eventually.js';

explainSkipWithoutChromium("the application's users");

type Mail = { to: { email: string }; subject: string; text: string; tags?: Record<string, string> };

/** The invitation's link in the dev mailbox, once its e-mail is there (it goes out after the answer). */
function invitationLink(session: AppSession, email: string): Promise<string> {
  return vi.waitFor(async () => {
    const response = await fetch(`${session.base}/dev/mailbox.json`);
    const mails = ((await response.json()) as { data: Mail[] }).data;
    const mail = mails.find((each) => each.to.email === email && each.tags?.kind === 'app_invitation');
    const link = mail && /https?:\/\/\S+\/app\/sign-in\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    if (!link) throw new Error('no invitation e-mail yet');
    return link;
  }, eventually);
}

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the application's users in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-users-', command);
    const looked = pageCheck(`app-users-${command ? 'dev' : 'start'}`, { noOverflow: true });

    for (const [device] of DEVICES) {
      it(`the demo owner invites a person, who signs in from the e-mail; made a viewer, their session ends; then deactivated (${device})`, async () => {
        const email = `invitee-${device}-${Date.now()}@example.com`;
        const name = `Ivy ${device}`;
        const ownerContext = await deviceContext(session, device);
        const owner = await ownerContext.newPage();
        const errors = watchErrors(owner);
        await signInAsOwner(session, owner);

        await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
        await owner.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
        await looked(owner, `${device}-1-list`);
        await owner.getByRole('link', { name: 'Invite a person' }).click();
        await owner.getByLabel('Name', { exact: true }).fill(name);
        await owner.getByLabel('E-mail address', { exact: true }).fill(email);
        await owner.getByLabel('Role', { exact: true }).selectOption('member');
        await owner.getByLabel('E-signing seat').check();
        await looked(owner, `${device}-2-invite`);
        await owner.getByRole('button', { name: 'Invite and send the e-mail' }).click();
        await owner.getByText(`The invitation is on its way to ${email}`).waitFor();
        await looked(owner, `${device}-3-invited`);

        // The invited person, in a browser of their own, signs in from the e-mail's link.
        const inviteeContext = await deviceContext(session, device);
        const invitee = await inviteeContext.newPage();
        const inviteeErrors = watchErrors(invitee);
        await invitee.goto(await invitationLink(session, email));
        await looked(invitee, `${device}-4-invitation`);
        await invitee.getByRole('button', { name: 'Sign in' }).click();
        await invitee.waitForURL(`${session.base}/app`);
        const nav = invitee.getByRole('navigation', { name: 'Main' });
        await nav.getByRole('link', { name: 'Envelopes' }).waitFor();
        await expect(nav.getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);
        await looked(invitee, `${device}-5-member-home`);

        await owner.getByLabel('Role', { exact: true }).selectOption('viewer');
        await owner.getByRole('button', { name: 'Save the changes' }).click();
        await owner.getByText('The changes are saved').waitFor();

        // A change of role ends the person's session: their next page asks them to sign in again.
        await nav.getByRole('link', { name: 'Envelopes' }).click();
        await invitee.getByRole('button', { name: 'E-mail me a sign-in link' }).waitFor();
        await looked(invitee, `${device}-6-session-ended`);

        await owner.getByRole('link', { name: 'Deactivate' }).click();
        await owner.getByRole('heading', { name: `Deactivate ${name}?` }).waitFor();
        await looked(owner, `${device}-7-confirm-deactivate`);
        await owner.getByRole('button', { name: 'Deactivate' }).click();
        await owner.getByText(`${name} is deactivated`).waitFor();
        await looked(owner, `${device}-8-deactivated`);
        await owner.getByRole('link', { name: 'All users' }).click();
        await expect(owner.getByRole('row').filter({ hasText: email }).textContent()).resolves.toContain('Deactivated');

        expect([...errors, ...inviteeErrors]).toEqual([]);
        await Promise.all([ownerContext.close(), inviteeContext.close()]);
      });
    }
  });
}
