/**
 * The second signer's page in Chromium, on both stacks (`npm start`, and the Worker in workerd
 * under `npm run dev`): the demo NDA (signing order) sent through the API, the Client signs in the
 * browser, and the Witness's page shows the Client's company and typed signature drawn over the
 * document at their places, in the PDF's font; the sender line names the company in Hebrew, isolated,
 * on an English and a Hebrew page; "Download the PDF" saves the document with the Client's values
 * drawn in, the original its first bytes. No serious axe violation; screenshots in test/artifacts/.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { APP_STACKS, appSession, deviceContext, screenshot, watchErrors } from '../support/app-browser.js';
import { accessToken, chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';
import { seriousViolations } from '../support/serious-violations.js';
import { installed } from '../support/outside-tools.js';
import { pdfText } from '../support/pdf-text.js';

const ACME = '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60';
const NDA = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const DISPLAY_NAME = 'אקמה בע״מ';
const pdfTools = installed('pdftotext');
const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

/** The document drawn by pdf.js, every page. */
async function documentShown(page: Page) {
  await page.waitForFunction(() => {
    const pages = document.querySelectorAll('.page-sheet').length;
    return (
      pages > 0 &&
      document.querySelectorAll('.page-sheet canvas.page-canvas').length === pages &&
      document.querySelector('[data-pages-status]')?.textContent === ''
    );
  });
}

explainSkipWithoutChromium('the second signer’s page');

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the second signer’s page in Chromium, on ${stack}`, () => {
    const session = appSession('esign-earlier-', command);
    const slug = stack.replace(/\W+/g, '-');

    it('shows the first signer’s company and typed signature over the document, and names the sender in Hebrew, isolated', async () => {
      const { base, server } = session;
      const admin = { authorization: `Bearer ${printed(server.output, 'Admin token')}`, 'content-type': 'application/json' };
      const branded = await fetch(`${base}/admin/v1/companies/${ACME}/brand`, {
        method: 'PUT',
        headers: admin,
        body: JSON.stringify({ display_name: DISPLAY_NAME }),
      });
      expect(branded.status, await branded.text()).toBe(200);
      const access_token = await accessToken(base, printed(server.output, 'API key'));
      const sent = await fetch(`${base}/v1/envelopes/from-template`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          template_id: NDA,
          recipients: [
            { role: 'Client', name: 'Cleo Client', email: 'cleo-earlier@example.com' },
            { role: 'Witness', name: 'Walt Witness', email: 'walt-earlier@example.com' },
          ],
        }),
      });
      const answer = (await sent.json()) as { signing_urls: { email: string; signing_url: string | null }[] };
      expect(sent.status, JSON.stringify(answer)).toBe(201);
      const linkOf = (email: string) => answer.signing_urls.find((entry) => entry.email === email)!.signing_url!.replace(/^https?:\/\/[^/]+/, base);

      const context = await deviceContext(session, 'desktop');
      const page = await context.newPage();
      const errors = watchErrors(page);
      // The Client signs in the browser: the company's name and a typed signature.
      await page.goto(linkOf('cleo-earlier@example.com'));
      await page.getByLabel('Company').fill('Cleo Industries Ltd');
      await page.locator('input.typed-signature').first().fill('Cleo C. Client');
      await page.locator('#input-consent').check();
      await page.getByRole('button', { name: 'Sign', exact: true }).click();
      await page
        .getByRole('heading', { name: /signed/i })
        .first()
        .waitFor();

      // The Witness's page: what the Client filled in, over the document where the PDF will have it.
      await page.goto(linkOf('walt-earlier@example.com'));
      await documentShown(page);
      const company = page.locator('.earlier-value.earlier-text .earlier-text');
      const signature = page.locator('.earlier-value.earlier-typed-signature .earlier-text');
      await expect.poll(() => company.textContent()).toBe('Cleo Industries Ltd');
      await expect.poll(() => signature.textContent()).toBe('Cleo C. Client');
      expect(await company.isVisible()).toBe(true);
      expect(await signature.isVisible()).toBe(true);
      // In the PDF's font, the signature slanted, and inside the page's picture.
      const look = await signature.evaluate((element) => {
        const style = getComputedStyle(element);
        return { family: style.fontFamily, style: style.fontStyle, size: Number.parseFloat(style.fontSize) };
      });
      expect(look.family).toContain('Noto Sans');
      expect(look.style).toContain('oblique');
      expect(look.size).toBeGreaterThan(8);
      const sheet = await page.locator('.page-sheet').nth(1).boundingBox();
      const box = await page.locator('.earlier-value.earlier-typed-signature').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(sheet!.x);
      expect(box!.y).toBeGreaterThanOrEqual(sheet!.y);
      expect(box!.x + box!.width).toBeLessThanOrEqual(sheet!.x + sheet!.width);
      // The sender as the certificate names them: the company's name, then the address, each isolated.
      expect(await page.locator('.envelope-meta bdi').first().textContent()).toBe(DISPLAY_NAME);
      expect(await page.locator('.envelope-meta').textContent()).toMatch(new RegExp(`^Sent by ${DISPLAY_NAME} \\(\\S+@\\S+\\) to Walt Witness`));
      expect(await seriousViolations(page)).toEqual([]);
      await page.locator('.signing-layout').scrollIntoViewIfNeeded();
      await screenshot(page, `earlier-signers-${slug}-en`);

      // "Download the PDF" saves the document with the Client's values drawn in; the viewer loaded the original.
      expect(await page.locator('[data-document]').getAttribute('data-document')).toMatch(/\/document\.pdf$/);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the PDF' }).click()]);
      const saved = new Uint8Array(readFileSync((await download.path())!));
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      // Whole and of a known length, on both stacks (the Worker streams the original, then the update).
      const href = await page.getByRole('link', { name: 'Download the PDF' }).getAttribute('href');
      expect(href).toMatch(/\/document\.pdf\?filled=1&download=1$/);
      const again = await page.request.get(`${base}${href}`);
      expect(again.status()).toBe(200);
      expect(again.headers()['content-length']).toBe(String(saved.length));
      if (pdfTools) {
        const text = pdfText(saved);
        expect(text).toContain('Cleo Industries Ltd');
        expect(text).toContain('Cleo C. Client');
        const original = new Uint8Array(await (await page.request.get(`${linkOf('walt-earlier@example.com')}/document.pdf`)).body());
        expect(pdfText(original)).not.toContain('Cleo Industries Ltd');
        expect(Buffer.from(saved.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
      }

      await page.goto(`${linkOf('walt-earlier@example.com')}?lang=he`);
      await documentShown(page);
      expect(await page.locator('.envelope-meta bdi').first().textContent()).toBe(DISPLAY_NAME);
      expect(await page.locator('.envelope-meta').textContent()).toContain(`נשלח על ידי ${DISPLAY_NAME} (`);
      expect(await page.locator('.earlier-value.earlier-text .earlier-text').textContent()).toBe('Cleo Industries Ltd');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `earlier-signers-${slug}-he`);
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);
  });
}
