/**
 * A radio group from the builder to the finished PDF in a real browser, on `npm start` and on
 * `npm run dev` (the Worker in workerd), on a desktop and a 390×844 phone: the demo owner places a
 * radio group from the palette, types its options one a line, drags one option's box with the
 * mouse (the group's box grows to hold it) and moves the other with the keyboard, and saves; the
 * API shows each option's box where it was put. Sent through the API, the signer's page shows each
 * option in its own box at that place; the signer clicks one and signs, and the finished PDF has
 * its X inside that option's box and not in the other. A date picked says under its picker how
 * the document will write it, and the finished PDF writes it so. No serious or critical axe violation, no
 * script error; screenshots in test/artifacts/.
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
import { eventually } from '../support/eventually.js';
import { pdfText } from '../support/pdf-text.js';
import { drawnInside, emailedSigningLink, expectPlace, finishedPdf, type Place } from '../support/signing-in-chromium.js';

explainSkipWithoutChromium('the builder’s radio groups');

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];
type Option = Place & { value: string };
type ApiField = Place & { type: string; page: number; settings: { options: Option[] } | null };

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`a radio group built and signed in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-kinds-', command);
    const stackName = command ? 'dev' : 'start';
    const looked = pageCheck(`app-kinds-${stackName}`);
    let bearer: string;
    let adminToken: string;
    let pdfPath: string;

    beforeAll(async () => {
      const exchanged = await fetch(`${session.base}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: printed(session.server.output, 'API key') }),
      });
      expect(exchanged.status).toBe(200);
      bearer = ((await exchanged.json()) as { access_token: string }).access_token;
      adminToken = printed(session.server.output, 'Admin token')!;
      pdfPath = join(session.scratch, 'plan.pdf');
      await writeFile(pdfPath, await generateDocument('Plan', 1, nodeFontSource()));
    });

    /** The place of the box `locator` over page 1's drawn picture, in the page's points. */
    async function inPoints(page: Page, sheet: string, box: ReturnType<Page['locator']>): Promise<Place> {
      const picture = (await page.locator(sheet).boundingBox())!;
      const drawn = (await box.boundingBox())!;
      const scale = picture.width / 612;
      return { x: (drawn.x - picture.x) / scale, y: (drawn.y - picture.y) / scale, width: drawn.width / scale, height: drawn.height / scale };
    }

    for (const [device] of DEVICES) {
      it(`places a radio group's options by mouse and keyboard, and the signer's click is where the X is drawn (${device})`, async () => {
        const context = await deviceContext(session, device);
        const page = await context.newPage();
        const errors = watchErrors(page);
        await signInAsOwner(session, page);
        await page.getByRole('navigation').getByRole('link', { name: 'Templates' }).click();
        await page.getByRole('link', { name: 'Build a template' }).click();
        await page.getByLabel('The PDF').setInputFiles(pdfPath);
        await page.getByRole('button', { name: 'Upload and continue' }).click();
        await page.locator('.builder-sheet[data-page="1"] .builder-canvas').waitFor();
        await page.locator('#name').fill(`Plan ${stackName} ${device}`);

        // A signature to sign with and a date, moved out of the way, then the radio group at the default place (72, 72, 180 × 36).
        await page.getByRole('button', { name: 'Add Signature field' }).click();
        for (let i = 0; i < 30; i++) await page.keyboard.press('Shift+ArrowDown');
        await page.getByRole('button', { name: 'Add Date field' }).click();
        for (let i = 0; i < 20; i++) await page.keyboard.press('Shift+ArrowDown');
        await page.locator('#field-1-label').fill('Start');
        await page.getByRole('button', { name: 'Add Radio buttons field' }).click();
        await page.locator('#field-2-options').fill('Monthly\nYearly');
        // Only what a kind takes is shown: a radio group's options and their boxes, not a number's bounds; a date, neither.
        await expect(page.locator('#field-2-min').isVisible()).resolves.toBe(false);
        await expect(page.locator('#field-1-options').isVisible()).resolves.toBe(false);
        await expect(page.locator('#field-2-option-1-x').inputValue()).resolves.toBe('162');
        const options = page.locator('.builder-sheet[data-page="1"] .builder-option-box');
        await expect.poll(() => options.count(), eventually).toBe(2);

        // The mouse: Yearly's box dragged 100 pt right, past the group's edge, which grows to hold it.
        const canvas = '.builder-sheet[data-page="1"] .builder-canvas';
        const scale = (await page.locator(canvas).boundingBox())!.width / 612;
        const yearly = options.nth(1);
        await yearly.scrollIntoViewIfNeeded();
        const from = (await yearly.boundingBox())!;
        // Grabbed left of its middle, away from the resize handle in its corner.
        const grab = { x: from.x + from.width * 0.4, y: from.y + from.height * 0.4 };
        await page.mouse.move(grab.x, grab.y);
        await page.mouse.down();
        await page.mouse.move(grab.x + 100 * scale, grab.y, { steps: 8 });
        await page.mouse.up();
        const draggedX = Number(await page.locator('#field-2-option-1-x').inputValue());
        expect(Math.abs(draggedX - 262)).toBeLessThanOrEqual(1);
        await expect(page.locator('#field-2-width').inputValue()).resolves.toBe(String(draggedX + 16 - 72));

        // The keyboard: Monthly's box 3 pt down and 10 pt right.
        await options.nth(0).focus();
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Shift+ArrowRight');
        await expect(page.locator('#field-2-option-0-x').inputValue()).resolves.toBe('82');
        await expect(page.locator('#field-2-option-0-y').inputValue()).resolves.toBe('75');
        if (device === 'phone') {
          // Drawn a few pixels wide on a phone, an option's box still takes a touch up to 8 px outside it.
          const monthlyBox = options.nth(0);
          await monthlyBox.scrollIntoViewIfNeeded();
          const drawn = (await monthlyBox.boundingBox())!;
          expect(drawn.height).toBeLessThan(24);
          const touches = (x: number, y: number) =>
            monthlyBox.evaluate((box, [at, down]) => document.elementFromPoint(at!, down!)?.closest('.builder-option-box') === box, [x, y]);
          await expect(touches(drawn.x - 6, drawn.y + drawn.height / 2)).resolves.toBe(true);
          await expect(touches(drawn.x + drawn.width / 2, drawn.y - 6)).resolves.toBe(true);
        }
        await looked(page, `${device}-1-builder`);

        await page.getByRole('button', { name: 'Save the template', exact: true }).last().click();
        await page.waitForURL(/\/app\/templates\/[0-9a-f-]{36}\?saved=1$/);
        const templateId = /\/app\/templates\/([0-9a-f-]{36})/.exec(page.url())![1]!;
        const template = await fetch(`${session.base}/v1/templates/${templateId}`, { headers: { authorization: `Bearer ${bearer}` } });
        const fields = ((await template.json()) as { fields: ApiField[] }).fields;
        const radio = fields.find((field) => field.type === 'radio')!;
        const [monthly, chosen] = radio.settings!.options;
        expect(monthly).toEqual({ value: 'Monthly', x: 82, y: 75, width: 16, height: 16 });
        expect(chosen).toEqual({ value: 'Yearly', x: draggedX, y: 72, width: 16, height: 16 });
        expect(radio).toMatchObject({ x: 72, y: 72, width: draggedX + 16 - 72, height: 36 });

        // Sent through the API; the signer opens the e-mailed link on the same device.
        const email = `kinds-${stackName}-${device}@example.com`;
        const sent = await fetch(`${session.base}/v1/envelopes/from-template`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ template_id: templateId, recipients: [{ role: 'Signer', name: 'Rae Radio', email }] }),
        });
        const envelope = (await sent.json()) as { envelope_id: string };
        expect(sent.status, JSON.stringify(envelope)).toBe(201);
        const link = await emailedSigningLink(session.base, envelope.envelope_id, email);
        const signer = await deviceContext(session, device);
        const signing = await signer.newPage();
        const signerErrors = watchErrors(signing);
        await signing.goto(link);
        const picture = '.page[data-page="1"] .page-canvas';
        await signing.locator(picture).waitFor();
        // Each option is a radio of the one group, in its own box at its place, named for screen readers.
        const group = signing.getByRole('radiogroup');
        await expect(group.getByRole('radio').count()).resolves.toBe(2);
        const yearlyBox = signing.getByRole('radio', { name: 'Yearly' });
        expectPlace(await inPoints(signing, picture, yearlyBox), chosen!);
        expectPlace(await inPoints(signing, picture, signing.getByRole('radio', { name: 'Monthly' })), monthly!);
        // Chosen by a click on its box; the arrow keys move the choice within the group, as browsers do.
        await signing.getByRole('radio', { name: 'Monthly' }).click();
        await signing.keyboard.press('ArrowRight');
        await expect(yearlyBox.isChecked()).resolves.toBe(true);
        await yearlyBox.click();
        // On a phone a box is drawn a few pixels wide: the label around it is a target of at least 24 px, and a tap at its corner chooses.
        const target = signing.locator('.option-box label', { hasText: 'Monthly' });
        const targetBox = (await target.boundingBox())!;
        expect(Math.min(targetBox.width, targetBox.height)).toBeGreaterThanOrEqual(24);
        await target.click({ position: { x: 1, y: 1 } });
        await expect(signing.getByRole('radio', { name: 'Monthly' }).isChecked()).resolves.toBe(true);
        await yearlyBox.click();
        // The date picker shows the browser's own format; the line under it, how the document will write the date.
        await signing.getByLabel('Start').fill('2027-03-03');
        const appears = (await signing.locator('[data-date-shown]').textContent()) ?? '';
        expect(appears).toMatch(/^Appears in the document as: .*2027/);
        // The date's box on the page shows it as the document will, too.
        await expect(signing.locator('.field-box-date [data-box-text]').textContent()).resolves.toBe(appears.replace('Appears in the document as: ', ''));
        await signing.getByLabel('Type your full name').fill('Rae Radio');
        await signing.getByLabel(/^I agree to sign this document electronically/).check();
        await looked(signing, `${device}-2-signing`);
        await signing.getByRole('button', { name: 'Sign', exact: true }).click();
        await signing.getByRole('heading', { name: /^(You have signed|Everyone has signed)$/ }).waitFor();
        await looked(signing, `${device}-3-signed`);

        const finished = await finishedPdf(session.base, adminToken, envelope.envelope_id);
        expect(drawnInside(finished, 1, 'X', chosen!)).toBe(true);
        expect(drawnInside(finished, 1, 'X', monthly!)).toBe(false);
        expect(pdfText(finished)).toContain(appears.replace('Appears in the document as: ', ''));
        expect(errors).toEqual([]);
        expect(signerErrors).toEqual([]);
        await signer.close();
        await context.close();
      });
    }
  });
}
