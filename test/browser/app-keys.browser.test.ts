/**
 * The application's API keys in a real browser, on `npm start` and on `npm run dev` (the Worker in
 * workerd): the demo owner signs in from the dev mailbox's link, creates a key, copies it with the
 * page's button, the test exchanges it at POST /v1/auth/token, and the owner revokes it, after
 * which the token's next call is 401; the audit log then shows the key made and revoked. On a
 * desktop and on a 390×844 phone, with no serious or critical axe violation on any page, nothing
 * running off the side of the screen (the keys list stacks into cards on the phone), and
 * screenshots of each step in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { describe, expect, it } from 'vitest';
import { APP_STACKS, appSession, DEVICES, deviceContext, pageCheck, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';

explainSkipWithoutChromium("the application's API keys");

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the application's API keys in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-keys-', command);
    // Nothing runs off the side of the screen: the list of keys stacks into cards on a phone.
    const accessible = pageCheck(`app-keys-${command ? 'dev' : 'start'}`, { noOverflow: true });

    for (const [device] of DEVICES) {
      it(`the demo owner creates a key, copies it, the key buys a token, and its revoke stops that token (${device})`, async () => {
        const { base } = session;
        const context = await deviceContext(session, device, { permissions: ['clipboard-read', 'clipboard-write'] });
        const page = await context.newPage();
        const errors = watchErrors(page);

        await signInAsOwner(session, page);

        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
        await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
        await accessible(page, `${device}-1-list`);

        await page.getByRole('link', { name: 'Create an API key' }).click();
        const name = `Browser ${device}`;
        await page.getByLabel('Name', { exact: true }).fill(name);
        await page.getByLabel('templates:read').check();
        await page.getByLabel('envelopes:send').check();
        await accessible(page, `${device}-2-new`);
        await page.getByRole('button', { name: 'Create the key' }).click();
        await page.getByRole('heading', { name: 'Your new API key' }).waitFor();

        const field = page.getByLabel('API key', { exact: true });
        const shown = await field.inputValue();
        expect(shown).toMatch(/^esk_/);
        await page.getByRole('button', { name: 'Copy the key' }).click();
        await page.getByText('Copied.').waitFor();
        await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(shown);
        await accessible(page, `${device}-3-shown`);

        const exchanged = await fetch(`${base}/v1/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ api_key: shown }),
        });
        expect(exchanged.status).toBe(200);
        const { access_token } = (await exchanged.json()) as { access_token: string };
        const templates = () => fetch(`${base}/v1/templates`, { headers: { authorization: `Bearer ${access_token}` } });
        expect((await templates()).status).toBe(200);

        await page.getByRole('link', { name: 'Back to the API keys' }).click();
        const row = page.getByRole('row').filter({ hasText: name });
        await expect(row.textContent()).resolves.toContain('from 127.0.0.1');
        await expect(page.content()).resolves.not.toContain(shown);
        await row.getByRole('link', { name: `Revoke ${name}` }).click();
        await page.getByRole('heading', { name: `Revoke ${name}?` }).waitFor();
        await accessible(page, `${device}-4-confirm-revoke`);
        await page.getByRole('button', { name: 'Revoke the key' }).click();
        await page.getByText(`The key ${name} is revoked`).waitFor();
        await expect(row.textContent()).resolves.toContain('Revoked');
        await accessible(page, `${device}-5-revoked`);

        expect((await templates()).status).toBe(401);

        // The audit log tells what was done, newest first: the revoke above the creation.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
        await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
        const revoked = page.getByRole('row').filter({ hasText: `revoked the API key “${name}”` });
        const created = page.getByRole('row').filter({ hasText: `created the API key “${name}”` });
        await revoked.waitFor();
        await created.waitFor();
        const sentences = await page.locator('tbody th').allTextContents();
        expect(sentences.findIndex((text) => text.includes(`revoked the API key “${name}”`))).toBeLessThan(
          sentences.findIndex((text) => text.includes(`created the API key “${name}”`)),
        );
        await accessible(page, `${device}-6-audit`);
        await page.getByLabel('What', { exact: true }).selectOption({ label: 'API keys' });
        await page.getByRole('button', { name: 'Show' }).click();
        await page.waitForURL(/group=keys/);
        await revoked.waitFor();
        await expect(page.getByRole('row').filter({ hasText: 'signed in' }).count()).resolves.toBe(0);
        await accessible(page, `${device}-7-audit-keys`);

        expect(errors).toEqual([]);
        await context.close();
      });
    }
  });
}
