/**
 * The field kinds date, number, dropdown and radio in a real browser, on `npm start` and on
 * `npm run dev` (the Worker in workerd): the signing page of the service agreement example shows a
 * date picker, a number input, a dropdown and a radio group. A bad value of each kind is refused
 * with the page's error and the choices kept; the number past its maximum as a person types it,
 * the others as a browser without those controls (or a forged post) would send them: a date that
 * does not exist, an option the dropdown does not have, a radio value not among the group's. Put
 * right, the form signs; once the second signer signs, the finished PDF shows each value inside
 * its field's box, and the radio group's X in the chosen option's box only. Screenshots of the
 * form filled, refused and signed in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../embedded/server-process.js';
import { APP_STACKS, appSession, screenshot, watchErrors } from '../support/app-browser.js';
import { accessToken, chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';
import { drawnInside, finishedPdf, signWithTypedName } from '../support/signing-in-chromium.js';

const ACME = '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60';
const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

type Definition = { fields: { label?: string; type: string; x: number; y: number; width: number; height: number; options?: unknown[] }[] };
type Sent = { envelope_id: string; signing_urls: { email: string; signing_url: string | null }[] };

explainSkipWithoutChromium('field kinds in the browser');

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the field kinds signed in Chromium, on ${stack}`, () => {
    const session = appSession('esign-kinds-', command);
    const stackName = command ? 'dev' : 'start';

    /** The service agreement imported for the demo company, sent to Cleo (Customer) and Pat (Provider), in that order. */
    async function sentAgreement(): Promise<{ envelopeId: string; linkOf: (email: string) => string; definition: Definition }> {
      const json = await readFile(join(projectRoot, 'examples', 'service-agreement.json'), 'utf8');
      const form = new FormData();
      form.set('template', json);
      form.set(
        'document',
        new Blob([await readFile(join(projectRoot, 'examples', 'service-agreement.pdf'))], { type: 'application/pdf' }),
        'service-agreement.pdf',
      );
      const admin = { authorization: `Bearer ${printed(session.server.output, 'Admin token')}` };
      const imported = await fetch(`${session.base}/admin/v1/companies/${ACME}/templates`, { method: 'POST', headers: admin, body: form });
      const template = (await imported.json()) as { id: string };
      expect(imported.status, JSON.stringify(template)).toBe(201);
      const bearer = await accessToken(session.base, printed(session.server.output, 'API key'));
      const sent = await fetch(`${session.base}/v1/envelopes/from-template`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          template_id: template.id,
          recipients: [
            { role: 'Customer', name: 'Cleo Customer', email: `cleo-kinds-${stackName}@example.com` },
            { role: 'Provider', name: 'Pat Provider', email: `pat-kinds-${stackName}@example.com` },
          ],
        }),
      });
      const answer = (await sent.json()) as Sent;
      expect(sent.status, JSON.stringify(answer)).toBe(201);
      const linkOf = (email: string) => answer.signing_urls.find((entry) => entry.email === email)!.signing_url!;
      return { envelopeId: answer.envelope_id, linkOf, definition: JSON.parse(json) as Definition };
    }

    it('refuses a bad value of each kind with the page’s error, then signs; the finished PDF shows each value in its box', async () => {
      const { envelopeId, linkOf, definition } = await sentAgreement();
      const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(linkOf(`cleo-kinds-${stackName}@example.com`));

      // What a browser without these controls, or a forged post, would send: the page's own
      // controls offer no such value, so the inputs are changed under them first.
      await page.getByLabel('Start date').evaluate((input: HTMLInputElement) => {
        input.type = 'text';
      });
      await page.getByLabel('Start date').fill('2027-02-30');
      await page.getByLabel('Seats').fill('501');
      await page.getByLabel('Plan').evaluate((select: HTMLSelectElement) => select.append(new Option('Platinum', 'Platinum')));
      await page.getByLabel('Plan').selectOption('Platinum');
      await page.getByLabel('Yearly').evaluate((radio: HTMLInputElement) => {
        radio.value = 'Weekly';
      });
      await page.getByLabel('Yearly').check();
      await page.getByLabel('I accept the terms above').check();
      await page.locator('input.typed-signature').first().fill('CC');
      await page.locator('input.typed-signature').nth(1).fill('Cleo Customer');
      await page.locator('#input-consent').check();
      await screenshot(page, `browser-field-kinds-${stackName}-filled`);
      await page.getByRole('button', { name: 'Sign', exact: true }).click();

      const summary = page.locator('[data-error-summary]');
      await expect.poll(() => summary.textContent()).toContain('“Seats” must be at most 500.');
      const refused = (await summary.textContent()) ?? '';
      expect(refused).toContain('Enter a date that exists for “Start date”.');
      expect(refused).toContain('Choose one of the options given for “Plan”.');
      expect(refused).toContain('Choose one of the options given for “Billing”.');
      await screenshot(page, `browser-field-kinds-${stackName}-refused`);
      // The refused form keeps what can be kept: the number as typed, the checkbox and the signatures.
      expect(await page.getByLabel('Seats').inputValue()).toBe('501');
      expect(await page.getByLabel('I accept the terms above').isChecked()).toBe(true);
      // No date "as the document will write it" for one that does not exist (30 February is not 2 March).
      expect(await page.locator('[data-date-shown]').textContent()).toBe('');

      // Put right with the page's own controls, the form signs.
      await page.getByLabel('Start date').fill('2027-02-28');
      await page.getByLabel('Seats').fill('500');
      await page.getByLabel('Plan').selectOption('Premium');
      await page.getByLabel('Yearly').check();
      await page.locator('#input-consent').check();
      await page.getByRole('button', { name: 'Sign', exact: true }).click();
      await page.getByRole('heading', { name: 'You have signed' }).waitFor();
      await screenshot(page, `browser-field-kinds-${stackName}-signed`);
      expect(errors.filter((error) => !error.includes('422'))).toEqual([]);

      await signWithTypedName(page, linkOf(`pat-kinds-${stackName}@example.com`), 'Pat Provider');
      await context.close();

      const finished = await finishedPdf(session.base, printed(session.server.output, 'Admin token')!, envelopeId);
      const place = (label: string) => definition.fields.find((field) => field.label === label)!;
      // The date as an en-GB document writes it, in the envelope's language (English).
      for (const word of ['28', 'February', '2027']) expect(drawnInside(finished, 1, word, place('Start date'))).toBe(true);
      expect(drawnInside(finished, 1, '500', place('Seats'))).toBe(true);
      expect(drawnInside(finished, 1, 'Premium', place('Plan'))).toBe(true);
      const [monthly, yearly] = place('Billing').options as { x: number; y: number; width: number; height: number }[];
      expect(drawnInside(finished, 1, 'X', yearly!)).toBe(true);
      expect(drawnInside(finished, 1, 'X', monthly!)).toBe(false);
    });
  });
}
