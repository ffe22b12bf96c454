/**
 * Signing in to the company application in a real browser, on the embedded server started as
 * `npm start` starts it and on `npm run dev` (the Worker in workerd): the demo owner named in the printed "Application" line asks for a link,
 * takes it from the dev mailbox, signs in with the link's button, sees the shell and signs out; on
 * a desktop and on a 390×844 phone, with no serious or critical axe violation on any page, and
 * screenshots of each step in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_STACKS, appSession, DEVICES, deviceContext, newSignInLink, pageCheck, signInLinks, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';

explainSkipWithoutChromium('signing in to the company application');

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`signing in to the company application in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-browser-', command);
    const accessible = pageCheck(`app-${command ? 'dev' : 'start'}`);

    // The printed "Application" line names the application and the demo owner to sign in as.
    beforeAll(() => {
      const line = /^Application:\s+(\S+)\s+\(sign in as (\S+): the link arrives in the dev mailbox\)/m.exec(session.server.output);
      expect(line?.[1]).toBe(`${session.base}/app`);
      expect(line?.[2]).toBe(session.owner);
    });

    for (const [device] of DEVICES) {
      it(`the demo owner signs in from the dev mailbox's link, sees the shell and signs out (${device})`, async () => {
        const { base, owner } = session;
        const context = await deviceContext(session, device);
        const page = await context.newPage();
        const errors = watchErrors(page);

        await page.goto(`${base}/app`);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
        await accessible(page, `${device}-1-sign-in`);

        const before = (await signInLinks(session)).length;
        await page.getByLabel('E-mail address').fill(owner);
        await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
        await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
        await accessible(page, `${device}-2-check-email`);

        const link = await newSignInLink(session, before);
        expect(link.startsWith(`${base}/app/sign-in/`)).toBe(true);
        await page.goto(link);
        await expect(page.locator('main').textContent()).resolves.toContain(owner);
        await accessible(page, `${device}-3-link`);

        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${base}/app`);
        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        await expect(page.locator('header').textContent()).resolves.toContain('Acme Ltd');
        await expect(page.locator('main').textContent()).resolves.toContain('Owner');
        const [cookie] = (await context.cookies(base)).filter((each) => each.name === 'esign_session');
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
        await accessible(page, `${device}-4-shell`);

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByText('You have signed out.').waitFor();
        expect((await context.cookies(base)).some((each) => each.name === 'esign_session')).toBe(false);
        await accessible(page, `${device}-5-signed-out`);

        expect(errors).toEqual([]);

        // The link was spent: opened again, it says so (410, which the console reports), and offers a new one.
        const again = await page.goto(link);
        expect(again?.status()).toBe(410);
        await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
        await expect(page.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).resolves.toBe('/app');
        await accessible(page, `${device}-6-link-spent`);
        await context.close();
      });
    }
  });
}
