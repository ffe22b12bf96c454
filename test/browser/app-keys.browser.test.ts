/**
 * The application's API keys in a real browser, on the embedded server started as `npm start`
 * starts it: the demo owner signs in from the dev mailbox's link, creates a key, copies it with
 * the page's button, the test exchanges it at POST /v1/auth/token, and the owner revokes it, after
 * which the token's next call is 401; on a desktop and on a 390×844 phone, with no serious or
 * critical axe violation on any page, and screenshots of each step in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, projectRoot, type ServerRun } from '../embedded/server-process.js';
import { chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';
import { eventually } from '../support/eventually.js';
import { seriousViolations } from '../support/serious-violations.js';

const ARTIFACTS = join(projectRoot, 'test', 'artifacts');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

type Mail = { to: { email: string }; text: string; tags?: Record<string, string> };

explainSkipWithoutChromium("the application's API keys");

describe.skipIf(chromiumMissing !== null)("the application's API keys in Chromium, on npm start", () => {
  let scratch: string;
  let server: ServerRun & { output: string };
  let browser: Browser;
  let base: string;
  let owner: string;

  const signInLinks = async () => {
    const response = await fetch(`${base}/dev/mailbox.json`);
    const mails = ((await response.json()) as { data: Mail[] }).data;
    return mails
      .filter((mail) => mail.to.email === owner && mail.tags?.kind === 'app_sign_in')
      .map((mail) => /https?:\/\/\S+\/app\/sign-in\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0]);
  };

  /** The link of the e-mail that went out after the page's answer. */
  async function newLink(before: number): Promise<string> {
    return vi.waitFor(async () => {
      const links = await signInLinks();
      if (links.length <= before || !links[0]) throw new Error('no new sign-in e-mail yet');
      return links[0];
    }, eventually);
  }

  function watch(page: Page): string[] {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return errors;
  }

  async function accessible(page: Page, shot: string) {
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `app-keys-${shot}.png`), fullPage: true });
  }

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    scratch = await mkdtemp(join(tmpdir(), 'esign-app-keys-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(
      port,
      join(scratch, 'data'),
      (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
    );
    owner = /^Application:\s+\S+\s+\(sign in as (\S+):/m.exec(server.output)![1]!;
  });

  afterAll(async () => {
    await browser?.close();
    if (server) {
      server.kill();
      await server.ended;
    }
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`the demo owner creates a key, copies it, the key buys a token, and its revoke stops that token (${device})`, async () => {
      const context = await browser.newContext({
        ...(device === 'phone' ? { viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport }),
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const errors = watch(page);

      await page.goto(`${base}/app`);
      const before = (await signInLinks()).length;
      await page.getByLabel('E-mail address').fill(owner);
      await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
      await page.goto(await newLink(before));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}/app`);

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
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
