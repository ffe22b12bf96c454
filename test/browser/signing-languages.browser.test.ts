/**
 * The signing page in every language, in a real Chromium against the embedded server (`npm start`):
 *
 * - every state of the page, in English and in Arabic (right to left), has no serious or critical
 *   accessibility violation under axe-core. The sign page, not-your-turn, the refused form, signed
 *   and the invalid link come from the server for a real envelope; the states a fresh server cannot
 *   reach at once (declined, voided, expired, completed, a copy's link, the refusals) are the same
 *   page functions' HTML, served on the server's origin so they load its real style sheet;
 * - a signer switches to Arabic and signs with the keyboard alone, and the page then says so in Arabic;
 * - the sign page on a phone (390×844) in each of the twelve languages is saved as a screenshot in
 *   the folder the run prints (under the OS temp dir), to be looked at.
 *
 * Skipped only when Chromium is not installed.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningEnvelope } from '../../src/domain/signing/signing-state.js';
import { statePage } from '../../src/signing-page/html/state-pages.js';
import { errorPage, forbiddenPage, tooManyRequestsPage } from '../../src/signing-page/html/notice-pages.js';
import { LANGUAGES, type Language, messagesFor } from '../../src/i18n/index.js';
import { freePort, type ServerRun } from '../embedded/server-process.js';
import { chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';
import { seriousViolations } from '../support/serious-violations.js';

const NDA = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const PHONE = { width: 390, height: 844 };
const SCREENSHOTS = join(tmpdir(), 'esign-signing-page-languages');

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

explainSkipWithoutChromium('the signing page in every language');

describe.skipIf(chromiumMissing !== null)('the signing page in every language, in Chromium', () => {
  let scratch: string;
  let server: ServerRun & { output: string };
  let base: string;
  let bearer: string;
  let browser: Browser;
  let desktop: BrowserContext;
  let phone: BrowserContext;

  /** A fresh envelope of the demo NDA (sequential: Client, then Witness): each signer's link. */
  async function send(): Promise<{ client: string; witness: string }> {
    const tag = crypto.randomUUID().slice(0, 8);
    const sent = await fetch(`${base}/v1/envelopes/from-template`, {
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
    const answer = (await sent.json()) as { signing_urls: { email: string; signing_url: string | null }[] };
    expect(sent.status, JSON.stringify(answer)).toBe(201);
    const link = (who: string) => answer.signing_urls.find((entry) => entry.email.startsWith(who))!.signing_url!;
    return { client: link('cleo'), witness: link('will') };
  }

  /** The sign page with pdf.js done: every page drawn or its failure told in the status line. */
  async function documentShown(page: Page) {
    await page.waitForFunction(
      () => document.querySelectorAll('canvas.page-canvas').length > 0 && document.querySelector('[data-pages-status]')?.textContent === '',
      null,
      {
        timeout: 30_000,
      },
    );
  }

  /** HTML made by the page functions, served at a path of the server's origin (so its static files load as on a real page). */
  async function showRendered(page: Page, html: string) {
    const url = `${base}/sign/rendered-${crypto.randomUUID()}`;
    await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(url);
  }

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    scratch = await mkdtemp(join(tmpdir(), 'esign-languages-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(
      port,
      join(scratch, 'data'),
      (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
    );
    const exchanged = await fetch(`${base}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: printed(server.output, 'API key') }),
    });
    expect(exchanged.status).toBe(200);
    bearer = ((await exchanged.json()) as { access_token: string }).access_token;
    desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    for (const context of [desktop, phone]) context.setDefaultTimeout(20_000);
  });

  afterAll(async () => {
    await browser?.close();
    if (server) {
      server.kill();
      await server.ended;
    }
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  for (const language of ['en', 'ar'] as const) {
    it(`${language}: every state of the page has no serious or critical axe-core violation`, async () => {
      const page = await desktop.newPage();
      const found: Record<string, string[]> = {};
      const check = async (state: string) => {
        expect(await page.getAttribute('html', 'lang'), state).toBe(language);
        expect(await page.getAttribute('html', 'dir'), state).toBe(language === 'ar' ? 'rtl' : 'ltr');
        found[state] = await seriousViolations(page);
      };
      const { client, witness } = await send();

      // From the server: the sign page (the language switcher open too), a refused form, not your turn, an invalid link.
      await page.goto(`${client}?lang=${language}`);
      await documentShown(page);
      await check('sign');
      await page.locator('.language-switcher summary').click();
      await check('sign, languages open');
      await page.locator('.sign-form button[type="submit"]').click();
      await page.waitForURL(/lang=/);
      await page.locator('[data-error-summary]').waitFor();
      await check('refused form');
      await page.locator('details.decline summary').click();
      await page.locator('details.decline button[type="submit"]').click();
      await page.locator('#error-reason').waitFor();
      await check('refused decline');
      await page.goto(`${witness}?lang=${language}`);
      await check('not your turn');
      await page.goto(`${base}/sign/rcp_notalinknotalinknotali.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA?lang=${language}`);
      await check('invalid link');

      // The page functions' HTML for the states a fresh server does not reach at once.
      const m = messagesFor(language);
      const envelope: SigningEnvelope = {
        id: 'env_0123456789abcdefghijkl',
        title: 'Mutual NDA',
        message: null,
        senderEmail: 'olivia@acme.test',
        expiresAt: new Date('2026-12-22T12:00:00.000Z'),
        language: null,
      };
      const links = { document: '/sign/x/document.pdf', download: '/sign/x/document.pdf?download=1', language: { path: '/sign/x' } };
      const rendered: [string, string][] = [
        ['signed', String(statePage(m, { kind: 'signed', envelope, signedAt: new Date('2026-11-22T12:30:00.000Z') }, links))],
        ['declined by them', String(statePage(m, { kind: 'declined', envelope, byThisRecipient: true }, links))],
        ['declined by another', String(statePage(m, { kind: 'declined', envelope, byThisRecipient: false }, links))],
        ['voided', String(statePage(m, { kind: 'voided', envelope }, links))],
        ['expired', String(statePage(m, { kind: 'expired', envelope }, links))],
        ['completed', String(statePage(m, { kind: 'completed', envelope, documentReady: true }, links))],
        ['completed, preparing', String(statePage(m, { kind: 'completed', envelope, documentReady: false }, links))],
        ['copy', String(statePage(m, { kind: 'copy', envelope }, links))],
        ['forbidden', String(forbiddenPage(m))],
        ['too many requests', String(tooManyRequestsPage(m, 120))],
        ['error', String(errorPage(m, true))],
      ];
      for (const [state, html] of rendered) {
        await showRendered(page, html);
        await check(state);
      }
      await page.close();
      const failing = Object.entries(found).filter(([, violations]) => violations.length > 0);
      expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);
      expect(Object.keys(found)).toHaveLength(17);
    });
  }

  it('a signer switches to Arabic and signs with the keyboard alone', async () => {
    const { client } = await send();
    const page = await desktop.newPage();
    await page.goto(client);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await documentShown(page);

    /** What has the focus, in words a test can act on. */
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLInputElement | null;
        if (!active || active === document.body) return { what: 'body' };
        if (active.matches('.language-switcher summary')) return { what: 'languages' };
        if (active.matches('a[hreflang]')) return { what: 'language', lang: active.getAttribute('hreflang') };
        if (active.id === 'input-consent') return { what: 'consent', checked: active.checked };
        if (active.matches('[data-sign-form] button[type="submit"]')) return { what: 'sign' };
        if (active.matches('input[type="checkbox"][name^="field."]')) return { what: 'checkbox', checked: active.checked };
        if (active.matches('input[type="text"][name^="field."]')) return { what: 'text', empty: active.value === '' };
        return { what: active.tagName.toLowerCase() };
      });
    const tabUntil = async (wanted: (state: Awaited<ReturnType<typeof focused>>) => boolean, what: string) => {
      for (let i = 0; i < 120; i++) {
        await page.keyboard.press('Tab');
        if (wanted(await focused())) return;
      }
      throw new Error(`Tab never reached ${what}`);
    };

    // The switcher: a fold opened with Enter, its links followed with Enter.
    await tabUntil((state) => state.what === 'languages', 'the language switcher');
    await page.keyboard.press('Enter');
    await tabUntil((state) => state.what === 'language' && state.lang === 'ar', 'العربية');
    await Promise.all([page.waitForURL(/\?lang=ar$/), page.keyboard.press('Enter')]);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await documentShown(page);

    // Every field that takes text gets some, every check box and the consent are ticked, then Sign.
    for (let i = 0; i < 160; i++) {
      await page.keyboard.press('Tab');
      const state = await focused();
      if (state.what === 'text' && state.empty) await page.keyboard.type('كليو كلاينت');
      else if ((state.what === 'checkbox' || state.what === 'consent') && !state.checked) await page.keyboard.press('Space');
      else if (state.what === 'sign') break;
      if (i === 159) throw new Error('Tab never reached the Sign button');
    }
    expect(await page.locator('#input-consent').isChecked()).toBe(true);
    await Promise.all([page.waitForURL(/\?lang=ar$/), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { level: 1, name: 'لقد وقّعت' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('saves the sign page on a phone in each of the twelve languages', async () => {
    const { client } = await send();
    console.log(`Screenshots of the signing page on a phone (390×844), one per language: ${SCREENSHOTS}`);
    const page = await phone.newPage();
    for (const language of LANGUAGES as readonly Language[]) {
      await page.goto(`${client}?lang=${language}`);
      await documentShown(page);
      // The web fonts of Japanese and Chinese are in before the picture is taken.
      await page.evaluate(async () => {
        // Every face the page's text needs (a web font loads only the ranges it is asked for), then all of them loaded.
        await document.fonts.load(getComputedStyle(document.body).font, document.body.textContent);
        await document.fonts.ready;
      });
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(sideways, `${language}: nothing sticks out sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SCREENSHOTS, `sign-page-${language}.png`) });
      await page.screenshot({ path: join(SCREENSHOTS, `sign-page-${language}-full.png`), fullPage: true });
    }
    await page.close();
    expect(existsSync(join(SCREENSHOTS, 'sign-page-ar.png'))).toBe(true);
  });
});
