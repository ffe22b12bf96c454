/**
 * The new field kinds in a real browser on `npm start`: the signing page of the service agreement
 * example (every kind) shows a date picker, a number input, a dropdown and a radio group, takes a
 * choice of each and signs; screenshots of the form before and after a refused value.
 */
import { readFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, type ServerRun } from '../embedded/server-process.js';
import { accessToken, chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';

const ACME = '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60';
const ARTIFACTS = join(projectRoot, 'test', 'artifacts');
const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

explainSkipWithoutChromium('field kinds in the browser');
describe.skipIf(chromiumMissing !== null)('the new field kinds in the browser', () => {
  let server: ServerRun & { output: string };
  let browser: Browser;
  let scratch: string;
  let base: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    scratch = await mkdtemp(join(tmpdir(), 'esign-kinds-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(
      port,
      join(scratch, 'data'),
      (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (server) {
      server.kill();
      await server.ended;
    }
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('signs the service agreement with a date, a number, a dropdown and a radio choice', async () => {
    const admin = { authorization: `Bearer ${printed(server.output, 'Admin token')}` };
    const form = new FormData();
    form.set('template', await readFile(join(projectRoot, 'examples', 'service-agreement.json'), 'utf8'));
    form.set(
      'document',
      new Blob([await readFile(join(projectRoot, 'examples', 'service-agreement.pdf'))], { type: 'application/pdf' }),
      'service-agreement.pdf',
    );
    const imported = await fetch(`${base}/admin/v1/companies/${ACME}/templates`, { method: 'POST', headers: admin, body: form });
    const template = (await imported.json()) as { id: string };
    expect(imported.status, JSON.stringify(template)).toBe(201);
    const access_token = await accessToken(base, printed(server.output, 'API key'));
    const sent = await fetch(`${base}/v1/envelopes/from-template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        template_id: template.id,
        recipients: [
          { role: 'Customer', name: 'Cleo Customer', email: 'cleo-kinds@example.com' },
          { role: 'Provider', name: 'Pat Provider', email: 'pat-kinds@example.com' },
        ],
      }),
    });
    const answer = (await sent.json()) as { signing_urls: { email: string; signing_url: string | null }[] };
    expect(sent.status, JSON.stringify(answer)).toBe(201);
    const link = answer.signing_urls.find((entry) => entry.email === 'cleo-kinds@example.com')!.signing_url!;

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await page.goto(link);
    await page.getByLabel('Start date').fill('2027-02-28');
    await page.getByLabel('Seats').fill('501');
    await page.getByLabel('Plan').selectOption('Premium');
    await page.getByLabel('Yearly').check();
    await page.getByLabel('I accept the terms above').check();
    await page.locator('input.typed-signature').first().fill('CC');
    await page.locator('input.typed-signature').nth(1).fill('Cleo Customer');
    await page.locator('#input-consent').check();
    await page.screenshot({ path: join(ARTIFACTS, 'browser-field-kinds-filled.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await expect.poll(() => page.locator('[data-error-summary]').textContent()).toContain('“Seats” must be at most 500.');
    await page.screenshot({ path: join(ARTIFACTS, 'browser-field-kinds-refused.png'), fullPage: true });
    // The refused form keeps the choices made; the number is put right and the form signs.
    expect(await page.getByLabel('Plan').inputValue()).toBe('Premium');
    expect(await page.getByLabel('Yearly').isChecked()).toBe(true);
    await page.getByLabel('Seats').fill('500');
    await page.locator('#input-consent').check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/sign'));
    await expect.poll(() => page.locator('h1').textContent()).toBeTruthy();
    await page.screenshot({ path: join(ARTIFACTS, 'browser-field-kinds-signed.png'), fullPage: true });
    await context.close();
  }, 120_000);
});
