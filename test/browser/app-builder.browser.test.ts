/**
 * The template builder in a real browser, on `npm start` and on `npm run dev` (the Worker in
 * workerd): the demo owner uploads a PDF, adds a role, drags a signature field from the palette
 * onto page 1, moves it with the keyboard, and saves; the API then shows the field where it was
 * placed, within 1 pt. Then a field placed and saved with the keyboard alone. On a desktop and a
 * 390×844 phone: no serious or critical axe violation, nothing wider than the screen, no script
 * error; screenshots in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { APP_STACKS, appSession, DEVICES, deviceContext, pageCheck, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';

explainSkipWithoutChromium('the template builder');

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];
type ApiField = { role: string; type: string; page: number; x: number; y: number; width: number; height: number };

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the template builder in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-builder-', command);
    const stackName = command ? 'dev' : 'start';
    const looked = pageCheck(`app-builder-${stackName}`, { noOverflow: true });
    let bearer: string;
    let pdfPath: string;

    beforeAll(async () => {
      const exchanged = await fetch(`${session.base}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: printed(session.server.output, 'API key') }),
      });
      expect(exchanged.status).toBe(200);
      bearer = ((await exchanged.json()) as { access_token: string }).access_token;
      pdfPath = join(session.scratch, 'lease.pdf');
      await writeFile(pdfPath, await generateDocument('Lease', 2, nodeFontSource()));
    });

    async function fieldsOf(templateId: string): Promise<ApiField[]> {
      const answer = await fetch(`${session.base}/v1/templates/${templateId}`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { fields: ApiField[] }).fields;
    }

    /** From the list to the builder around the uploaded PDF, its first page drawn. */
    async function uploadPdf(page: Page) {
      await page.getByRole('navigation').getByRole('link', { name: 'Templates' }).click();
      await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
      await page.getByRole('link', { name: 'Build a template' }).click();
      await page.getByLabel('The PDF').setInputFiles(pdfPath);
      await page.getByRole('button', { name: 'Upload and continue' }).click();
      await page.getByRole('heading', { level: 1, name: 'Build a template' }).waitFor();
      await page.locator('.builder-sheet[data-page="1"] .builder-canvas').waitFor();
    }

    async function savedTemplateId(page: Page): Promise<string> {
      await page.waitForURL(/\/app\/templates\/[0-9a-f-]{36}\?saved=1$/);
      return /\/app\/templates\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    }

    for (const [device] of DEVICES) {
      it(`places a field by dragging and by the keyboard, and the API shows it there (${device})`, async () => {
        const context = await deviceContext(session, device);
        const page = await context.newPage();
        const errors = watchErrors(page);
        // Which address failed, should one: the console names only the status.
        const failed: string[] = [];
        page.on('response', (response) => {
          if (response.status() >= 500) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
        });
        await signInAsOwner(session, page);
        await uploadPdf(page);
        await looked(page, `${device}-1-uploaded`);

        await page.getByRole('button', { name: 'Add a role' }).click();
        await page.locator('#role-1-name').waitFor();
        await page.locator('#role-1-name').fill('Tenant');
        await page.locator('#name').fill(`Lease ${stackName} ${device}`);
        await page.locator('.builder-sheet[data-page="1"] .builder-canvas').waitFor();

        // Dragged from the palette onto page 1: the field's corner where it is dropped.
        const sheet = page.locator('.builder-sheet[data-page="1"]');
        const palette = page.getByRole('button', { name: 'Add Signature field' });
        // The palette and the top of page 1 both on the screen: the drag stays inside the viewport.
        await palette.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        const from = (await palette.boundingBox())!;
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await page.mouse.down();
        // The page's picture is the page itself, inside the sheet's border.
        const area = (await sheet.locator('.builder-canvas').boundingBox())!;
        const bottom = page.viewportSize()!.height - 10;
        const drop = { x: area.x + area.width * 0.2, y: Math.min(area.y + area.height * 0.25, bottom) };
        await page.mouse.move(drop.x, drop.y, { steps: 8 });
        await page.mouse.up();
        const scale = area.width / 612;
        const box = page.locator('.builder-sheet[data-page="1"] .builder-box');
        await expect(box.count()).resolves.toBe(1);
        await page.locator('#field-0-role').selectOption('Tenant');
        // Moved with the keyboard: 3 pt right, 10 pt down.
        await box.focus();
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Shift+ArrowDown');
        const expected = { x: (drop.x - area.x) / scale + 3, y: (drop.y - area.y) / scale + 10 };
        await looked(page, `${device}-2-placed`);

        await page.getByRole('button', { name: 'Save the template', exact: true }).last().click();
        const first = await savedTemplateId(page);
        await looked(page, `${device}-3-saved`);
        const [field] = await fieldsOf(first);
        expect(field).toMatchObject({ role: 'Tenant', type: 'signature', page: 1, width: 180, height: 36 });
        expect(Math.abs(field!.x - expected.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(field!.y - expected.y)).toBeLessThanOrEqual(1);

        // The keyboard alone: the palette's button places the field, the arrows move it, Enter saves.
        await uploadPdf(page);
        await page.locator('#name').fill(`Keyboard lease ${stackName} ${device}`);
        await page.getByRole('button', { name: 'Add Initials field' }).focus();
        await page.keyboard.press('Enter');
        await expect(page.locator('.builder-box').evaluate((element) => element === document.activeElement)).resolves.toBe(true);
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Shift+ArrowDown');
        await page.getByRole('button', { name: 'Save the template', exact: true }).last().focus();
        await page.keyboard.press('Enter');
        const second = await savedTemplateId(page);
        expect(await fieldsOf(second)).toEqual([expect.objectContaining({ role: 'Signer', type: 'initials', page: 1, x: 73, y: 82, width: 180, height: 36 })]);

        expect(failed).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  });
}
