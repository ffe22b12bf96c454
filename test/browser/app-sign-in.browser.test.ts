/**
 * Signing in to the company application in a real browser, on the embedded server started as
 * `npm start` starts it and on `npm run dev` (the Worker in workerd): the demo owner named in the printed "Application" line asks for a link,
 * takes it from the dev mailbox, signs in with the link's button, sees the shell and signs out; on
 * a desktop and on a 390×844 phone, with no serious or critical axe violation on any page, and
 * screenshots of each step in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, type ServerRun } from '../embedded/server-process.js';
import { chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';
import { seriousViolations } from '../support/serious-violations.js';

const ARTIFACTS = join(projectRoot, 'test', 'artifacts');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

type Mail = { to: { email: string }; text: string; tags?: Record<string, string> };

explainSkipWithoutChromium('signing in to the company application');

/** The stacks the application runs on here: the embedded server, and the Worker in workerd with the production adapters. */
const stacks = [
  ['npm start', undefined],
  ['npm run dev', ['npm', 'run', '-s', 'dev']],
] as const;

for (const [stack, command] of stacks) {
  describe.skipIf(chromiumMissing !== null)(`signing in to the company application in Chromium, on ${stack}`, () => {
    let scratch: string;
    let server: ServerRun & { output: string };
    let browser: Browser;
    let base: string;
    let owner: string;

    async function mailbox(): Promise<Mail[]> {
      const response = await fetch(`${base}/dev/mailbox.json`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: Mail[] }).data;
    }

    const signInLinks = async () =>
      (await mailbox())
        .filter((mail) => mail.to.email === owner && mail.tags?.kind === 'app_sign_in')
        .map((mail) => /https?:\/\/\S+\/app\/sign-in\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0]);

    /** Waits for the e-mail to arrive: it goes out after the page's answer. */
    async function newLink(before: number): Promise<string> {
      for (;;) {
        const links = await signInLinks();
        if (links.length > before && links[0]) return links[0];
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    /** What a page reported that a person would never want: console errors, script errors, refused content. */
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
      await page.screenshot({ path: join(ARTIFACTS, `app-${command ? 'dev' : 'start'}-${shot}.png`), fullPage: true });
    }

    beforeAll(async () => {
      await mkdir(ARTIFACTS, { recursive: true });
      scratch = await mkdtemp(join(tmpdir(), 'esign-app-browser-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      await startServerAndChromium(
        port,
        join(scratch, 'data'),
        (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
        command ? [...command] : undefined,
      );
      const line = /^Application:\s+(\S+)\s+\(sign in as (\S+): the link arrives in the dev mailbox\)/m.exec(server.output);
      expect(line?.[1]).toBe(`${base}/app`);
      owner = line![2]!;
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
      it(`the demo owner signs in from the dev mailbox's link, sees the shell and signs out (${device})`, async () => {
        const context: BrowserContext = await browser.newContext(
          device === 'phone' ? { viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport },
        );
        context.setDefaultTimeout(20_000);
        const page = await context.newPage();
        const errors = watch(page);

        await page.goto(`${base}/app`);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
        await accessible(page, `${device}-1-sign-in`);

        const before = (await signInLinks()).length;
        await page.getByLabel('E-mail address').fill(owner);
        await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
        await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
        await accessible(page, `${device}-2-check-email`);

        const link = await newLink(before);
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
