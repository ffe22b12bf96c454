/**
 * The application's settings in a real browser, on the embedded server started as `npm start`
 * starts it and on `npm run dev` (the Worker in workerd with the production adapters): the demo
 * owner signs in from the dev mailbox, changes the display name and the accent colour, uploads a
 * logo, and sees the framed e-mail preview change with each; the usage counts a send made through
 * the API with the printed key. On a desktop and on a 390×844 phone, no serious or critical axe
 * violation and nothing wider than the phone's screen; screenshots in test/artifacts/. Axe cannot
 * enter the preview's frame (its sandbox turns script off there, on purpose), so each state is
 * photographed with the preview, then checked with the frame taken out of the page.
 *
 * Skipped only when Chromium is not installed.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_STACKS, appSession, DEVICES, deviceContext, screenshot, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';
import { eventually } from '../support/eventually.js';
import { logoPng } from '../support/logo-images.js';
import { seriousViolations } from '../support/serious-violations.js';

/** The demo seed's mutual NDA, as the README's tour sends it. */
const NDA = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';

explainSkipWithoutChromium("the application's settings");

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

/** A page state: its screenshot (the preview in it), then axe and the width, the frame taken out. */
async function looked(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await page.locator('iframe.email-preview').evaluate((frame) => frame.remove());
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** The sends the usage shows: `N of M`. */
async function sentOnPage(page: Page): Promise<number> {
  const text = (await page.locator('#usage-used').textContent()) ?? '';
  return Number(/^(\d+) of \d+$/.exec(text.trim())?.[1] ?? Number.NaN);
}

/** The image's width once it has loaded (0 if it fails): the page may show before its images arrive. */
const loadedWidth = (image: HTMLImageElement): number | Promise<number> =>
  image.complete
    ? image.naturalWidth
    : new Promise((resolve) => {
        image.addEventListener('load', () => resolve(image.naturalWidth), { once: true });
        image.addEventListener('error', () => resolve(0), { once: true });
      });

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the application's settings in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-settings-', command);
    const stackName = command ? 'dev' : 'start';
    const shot = (device: string, step: string) => `app-settings-${stackName}-${device}-${step}`;
    let bearer: string;

    beforeAll(async () => {
      const exchanged = await fetch(`${session.base}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: printed(session.server.output, 'API key') }),
      });
      expect(exchanged.status).toBe(200);
      bearer = ((await exchanged.json()) as { access_token: string }).access_token;
    });

    async function sendNda(tag: string): Promise<void> {
      const sent = await fetch(`${session.base}/v1/envelopes/from-template`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({
          template_id: NDA,
          recipients: [
            { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.com` },
            { role: 'Witness', name: 'Will Witness', email: `will-${tag}@example.com` },
          ],
        }),
      });
      expect(sent.status).toBe(201);
    }

    for (const [device, index] of DEVICES.map(([name], at) => [name, at] as const)) {
      it(`the demo owner changes the brand, uploads a logo, sees the preview follow, and the usage count a send (${device})`, async () => {
        const context = await deviceContext(session, device);
        const page = await context.newPage();
        const errors = watchErrors(page);
        await signInAsOwner(session, page);

        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
        await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
        const preview = page.frameLocator('iframe.email-preview');
        await preview.locator('body').waitFor();
        await looked(page, shot(device, '1-settings'));

        // Each device its own name and colour, so the preview's change is this walk's.
        const name = `Initech ${device}`;
        const accent = ['#c2410c', '#0f766e'][index]!;
        await page.reload();
        await page.getByLabel('Display name').fill(name);
        await page.getByLabel('Accent colour').fill(accent);
        await page.getByRole('button', { name: 'Save the brand' }).click();
        await page.getByText('The brand is saved.').waitFor();
        await expect(preview.locator('body').textContent()).resolves.toContain(name);
        await expect(preview.locator(`td[style*="background:${accent}"]`).count()).resolves.toBe(1);
        await looked(page, shot(device, '2-brand-saved'));

        await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng(96, 48) });
        await page.getByRole('button', { name: 'Upload the logo' }).click();
        await page.getByText('The logo is saved.').waitFor();
        const logo = page.getByRole('img', { name: 'The current logo' });
        await expect(logo.evaluate(loadedWidth)).resolves.toBe(96);
        const inMail = preview.getByRole('img', { name });
        await inMail.waitFor();
        await expect(inMail.evaluate(loadedWidth)).resolves.toBe(96);
        await looked(page, shot(device, '3-logo-uploaded'));
        // The preview on its own too: a full-page screenshot leaves the sandboxed frame's content out.
        const alone = await context.newPage();
        await alone.goto(`${session.base}/app/settings/email-preview`);
        await alone.getByRole('img', { name }).waitFor();
        await screenshot(alone, shot(device, '3-preview-alone'));
        await alone.close();

        // A mistake comes back marked, and the saved brand stays.
        await page.reload();
        await page.getByLabel('Allowed origins').fill('ftp://files.example.com');
        await page.getByRole('button', { name: 'Save the origins' }).click();
        await page.getByText('Line 1:').waitFor();
        await looked(page, shot(device, '4-origin-refused'));

        await page.goto(`${session.base}/app/settings`);
        const before = await sentOnPage(page);
        await sendNda(`${stackName}-${device}`);
        await vi.waitFor(async () => {
          await page.reload();
          expect(await sentOnPage(page)).toBe(before + 1);
        }, eventually);
        await expect(page.locator('#usage-refused-quota').textContent()).resolves.toBe('0');
        await page.locator('#usage-title').scrollIntoViewIfNeeded();
        await looked(page, shot(device, '5-usage'));

        // The refused origins' page is answered 422 on purpose, which Chromium reports as a failed load.
        expect(errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
        await context.close();
      });
    }
  });
}
