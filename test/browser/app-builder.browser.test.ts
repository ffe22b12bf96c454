/**
 * One file although long: the stories share one server and browser per stack, and the later ones
 * follow the template the first built through its versions to its archiving.
 *
 * The template builder in a real browser, on `npm start` and on `npm run dev` (the Worker in
 * workerd): the demo owner uploads a PDF, adds a role, drags a signature field from the palette
 * onto page 1, moves it with the keyboard, and saves; the API then shows the field where it was
 * placed, within 1 pt. Then a field placed and saved with the keyboard alone. On a desktop and a
 * 390×844 phone: no serious or critical axe violation, nothing wider than the screen, no script
 * error, no request outside the service's origin; screenshots in test/artifacts/.
 *
 * Then, on a desktop, a template's whole life: built, sent through the API and signed in the
 * browser (the field on the signing page and in the finished PDF where it was placed); changed in
 * the builder and saved as version 2 (an envelope sent before keeps version 1's layout, a new send
 * takes version 2's); archived in the application (the API answers 404, the list drops it, the
 * envelope sent before still finishes). Its builder screenshot is docs/images/template-builder.png.
 *
 * Skipped only when Chromium is not installed.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { pdfText } from '../support/pdf-text.js';
import { APP_STACKS, ARTIFACTS, appSession, DEVICES, deviceContext, pageCheck, requestsElsewhere, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';
import { drawnInside, emailedSigningLink, expectPlace, fieldBoxInPoints, finishedPdf, type Place, signWithTypedName } from '../support/signing-in-chromium.js';

explainSkipWithoutChromium('the template builder');

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];
type ApiField = Place & { role: string; type: string; page: number };
type Sent = { envelope_id: string };

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the template builder in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-builder-', command);
    const stackName = command ? 'dev' : 'start';
    const looked = pageCheck(`app-builder-${stackName}`, { noOverflow: true });
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
      pdfPath = join(session.scratch, 'lease.pdf');
      await writeFile(pdfPath, await generateDocument('Lease', 2, nodeFontSource()));
    });

    const templateAnswer = (templateId: string) => fetch(`${session.base}/v1/templates/${templateId}`, { headers: { authorization: `Bearer ${bearer}` } });

    async function fieldsOf(templateId: string): Promise<ApiField[]> {
      const answer = await templateAnswer(templateId);
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { fields: ApiField[] }).fields;
    }

    /** A send from the template as a program makes it, to Tara as its Tenant; her link is the one she is e-mailed. */
    function sendFrom(templateId: string, email: string) {
      return fetch(`${session.base}/v1/envelopes/from-template`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ template_id: templateId, recipients: [{ role: 'Tenant', name: 'Tara Tenant', email }] }),
      });
    }

    async function sent(templateId: string, email: string): Promise<{ envelopeId: string; link: string }> {
      const answer = await sendFrom(templateId, email);
      const body = (await answer.json()) as Sent;
      expect(answer.status, JSON.stringify(body)).toBe(201);
      return { envelopeId: body.envelope_id, link: await emailedSigningLink(session.base, body.envelope_id, email) };
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

    /**
     * Drags the palette's signature field onto page 1, its corner dropped at `at` (fractions of
     * the page's width and height): where the builder should place it, in points.
     */
    async function dragSignatureOntoPage(page: Page, at: { x: number; y: number }): Promise<{ x: number; y: number }> {
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
      const drop = { x: area.x + area.width * at.x, y: Math.min(area.y + area.height * at.y, bottom) };
      await page.mouse.move(drop.x, drop.y, { steps: 8 });
      await page.mouse.up();
      const scale = area.width / 612;
      return { x: (drop.x - area.x) / scale, y: (drop.y - area.y) / scale };
    }

    async function saveTemplate(page: Page): Promise<string> {
      await page.getByRole('button', { name: 'Save the template', exact: true }).last().click();
      await page.waitForURL(/\/app\/templates\/[0-9a-f-]{36}\?saved=1$/);
      return /\/app\/templates\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    }

    /** From the list to a template's page, by its name. */
    async function openTemplate(page: Page, name: string) {
      await page.getByRole('navigation').getByRole('link', { name: 'Templates' }).click();
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
    }

    for (const [device] of DEVICES) {
      it(`places a field by dragging and by the keyboard, and the API shows it there (${device})`, async () => {
        const context = await deviceContext(session, device);
        const elsewhere = requestsElsewhere(context, session.base);
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
        const dropped = await dragSignatureOntoPage(page, { x: 0.2, y: 0.25 });
        const box = page.locator('.builder-sheet[data-page="1"] .builder-box');
        await expect(box.count()).resolves.toBe(1);
        await page.locator('#field-0-role').selectOption('Tenant');
        // Its row in the side panel and its box on the page both take the Tenant's colour (the second role's).
        const colours = await page.evaluate(() =>
          ['[data-field="0"]', '.builder-sheet[data-page="1"] .builder-box'].map(
            (selector) => /role-colour-\d+/.exec(document.querySelector(selector)?.className ?? '')?.[0],
          ),
        );
        expect(colours).toEqual(['role-colour-1', 'role-colour-1']);
        // Moved with the keyboard: 3 pt right, 10 pt down.
        await box.focus();
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Shift+ArrowDown');
        const expected = { x: dropped.x + 3, y: dropped.y + 10 };
        await looked(page, `${device}-2-placed`);

        const first = await saveTemplate(page);
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
        await page.waitForURL(/\/app\/templates\/[0-9a-f-]{36}\?saved=1$/);
        const second = /\/app\/templates\/([0-9a-f-]{36})/.exec(page.url())![1]!;
        expect(await fieldsOf(second)).toEqual([expect.objectContaining({ role: 'Signer', type: 'initials', page: 1, x: 73, y: 82, width: 180, height: 36 })]);

        // The builder, app-builder.js and the pdf.js it loads all come from the service itself.
        expect(elsewhere).toEqual([]);
        expect(failed).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      });
    }

    describe('a template built, sent, changed and archived (desktop)', () => {
      const name = `Tenancy ${stackName}`;
      let owner: BrowserContext;
      let ownerPage: Page;
      let signer: BrowserContext;
      let signerPage: Page;
      let ownerErrors: string[];
      let signerErrors: string[];
      let ownerElsewhere: string[];
      let templateId: string;
      let v1: ApiField;
      let v2: ApiField;
      /** Sent from version 1 before the change; the first signed after it, the second after the archiving. */
      let beforeChange: { envelopeId: string; link: string }[];

      beforeAll(async () => {
        owner = await deviceContext(session, 'desktop');
        ownerElsewhere = requestsElsewhere(owner, session.base);
        ownerPage = await owner.newPage();
        ownerErrors = watchErrors(ownerPage);
        signer = await deviceContext(session, 'desktop');
        signerPage = await signer.newPage();
        signerErrors = watchErrors(signerPage);
        // Which address failed, should one: the console names only the status.
        signerPage.on('response', (response) => {
          if (response.status() >= 400) signerErrors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
        });
        await signInAsOwner(session, ownerPage);
      });
      afterAll(async () => {
        await owner?.close();
        await signer?.close();
      });

      /**
       * Tara signs the envelope at `link`; its finished PDF shows her name inside `place` and not
       * inside `elsewhere`, and its certificate names the template's version it was sent with.
       */
      async function signedAt(envelope: { envelopeId: string; link: string }, place: Place, elsewhere: Place, version: number) {
        await signWithTypedName(signerPage, envelope.link, 'Tara Tenant');
        const finished = await finishedPdf(session.base, adminToken, envelope.envelopeId);
        expect(drawnInside(finished, 1, 'Tenant', place)).toBe(true);
        expect(drawnInside(finished, 1, 'Tenant', elsewhere)).toBe(false);
        expect(pdfText(finished)).toMatch(new RegExp(`Envelope sent from version ${version}\\s+of its template`));
      }

      it('a send from the built template shows the field where it was placed: on the signing page and in the finished PDF', async () => {
        await uploadPdf(ownerPage);
        await ownerPage.locator('#name').fill(name);
        // The first role renamed, so that the template's one signer is the Tenant.
        await ownerPage.locator('#role-0-name').fill('Tenant');
        const dropped = await dragSignatureOntoPage(ownerPage, { x: 0.15, y: 0.2 });
        await ownerPage.locator('#field-0-role').selectOption('Tenant');
        // The guide's picture (docs/images/template-builder.png): the palette, the field on page 1 and its row.
        await ownerPage.getByRole('heading', { level: 2, name: 'The document' }).evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await ownerPage.screenshot({ path: join(ARTIFACTS, `app-builder-${stackName}-guide.png`), clip: { x: 0, y: 0, width: 1280, height: 800 } });
        templateId = await saveTemplate(ownerPage);
        [v1] = (await fieldsOf(templateId)) as [ApiField];
        expect(v1).toMatchObject({ role: 'Tenant', type: 'signature', page: 1 });
        expect(Math.abs(v1.x - dropped.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(v1.y - dropped.y)).toBeLessThanOrEqual(1);

        const envelope = await sent(templateId, `tara-first-${stackName}@example.com`);
        expectPlace(await fieldBoxInPoints(signerPage, envelope.link), v1);
        await signerPage.screenshot({ path: join(ARTIFACTS, `app-builder-${stackName}-signing-v1.png`), fullPage: true });
        await signedAt(envelope, v1, { ...v1, y: v1.y + 200 }, 1);
        expect(signerErrors).toEqual([]);
      });

      it('a change saved as version 2 leaves the envelopes sent from version 1 on its layout, and a new send takes version 2', async () => {
        beforeChange = [await sent(templateId, `tara-before-${stackName}@example.com`), await sent(templateId, `tara-kept-${stackName}@example.com`)];

        await openTemplate(ownerPage, name);
        await ownerPage.getByRole('link', { name: 'Change the template' }).click();
        await ownerPage.getByRole('heading', { level: 1, name: 'Change the template' }).waitFor();
        await ownerPage.locator('.builder-sheet[data-page="1"] .builder-canvas').waitFor();
        // Moved with the keyboard: 100 pt right and 200 pt down, far from version 1's place.
        await ownerPage.locator('.builder-sheet[data-page="1"] .builder-box').focus();
        for (let i = 0; i < 10; i++) await ownerPage.keyboard.press('Shift+ArrowRight');
        for (let i = 0; i < 20; i++) await ownerPage.keyboard.press('Shift+ArrowDown');
        expect(await saveTemplate(ownerPage)).toBe(templateId);
        await ownerPage.getByRole('rowheader', { name: '2', exact: true }).waitFor();
        await looked(ownerPage, 'desktop-4-version-2');
        [v2] = (await fieldsOf(templateId)) as [ApiField];
        expect(v2).toMatchObject({ role: 'Tenant', type: 'signature', page: 1, x: v1.x + 100, y: v1.y + 200, width: v1.width, height: v1.height });

        // Sent before the change: still version 1's box on the signing page, and in its finished PDF.
        expectPlace(await fieldBoxInPoints(signerPage, beforeChange[0]!.link), v1);
        await signedAt(beforeChange[0]!, v1, v2, 1);
        // Sent after: version 2's.
        const after = await sent(templateId, `tara-after-${stackName}@example.com`);
        expectPlace(await fieldBoxInPoints(signerPage, after.link), v2);
        await signerPage.screenshot({ path: join(ARTIFACTS, `app-builder-${stackName}-signing-v2.png`), fullPage: true });
        await signedAt(after, v2, v1, 2);
        expect(signerErrors).toEqual([]);
      });

      it('archived in the application, the template answers 404 and leaves the list; the envelope sent from version 1 still finishes', async () => {
        await openTemplate(ownerPage, name);
        await ownerPage.getByRole('link', { name: 'Archive the template' }).click();
        await ownerPage.getByRole('heading', { level: 1, name: `Archive ${name}?` }).waitFor();
        await looked(ownerPage, 'desktop-5-archive');
        await ownerPage.getByRole('button', { name: 'Archive the template' }).click();
        await ownerPage.getByRole('status').filter({ hasText: 'The template is archived.' }).waitFor();
        await expect(ownerPage.getByRole('link', { name, exact: true }).count()).resolves.toBe(0);
        await looked(ownerPage, 'desktop-6-archived');

        const read = await templateAnswer(templateId);
        expect(read.status).toBe(404);
        expect(await read.json()).toMatchObject({ error: { code: 'template_not_found' } });
        const refused = await sendFrom(templateId, `tara-refused-${stackName}@example.com`);
        expect(refused.status).toBe(404);
        expect(await refused.json()).toMatchObject({ error: { code: 'template_not_found' } });

        // Sent from version 1 before the change and the archiving: it signs and finishes on version 1's layout.
        expectPlace(await fieldBoxInPoints(signerPage, beforeChange[1]!.link), v1);
        await signedAt(beforeChange[1]!, v1, v2, 1);
        expect(signerErrors).toEqual([]);
        expect(ownerErrors).toEqual([]);
        expect(ownerElsewhere).toEqual([]);
      });
    });
  });
}
