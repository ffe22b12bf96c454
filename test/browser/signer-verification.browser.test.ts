/**
 * The verification step of the signing page in a real Chromium, against the embedded server started
 * as `npm start` starts it: a template whose role asks for a code by e-mail (`email_code`) is imported
 * through the admin API and sent through the API, and the signer opens the link from their e-mail.
 *
 * - the step shows the envelope's title and the masked address, nothing of the document, and has no
 *   serious or critical axe-core violation, in English and in Arabic (right to left);
 * - the signer asks for the code, which arrives in the dev mailbox; a wrong one is refused with a
 *   message the page announces (and axe-core finds nothing serious on that state either); the right
 *   one opens the document, the signer signs, and the envelope completes;
 * - the code is asked for and entered with the keyboard alone;
 * - another browser (fresh cookies) opening the same link meets the step again, not the document.
 *
 * Skipped only when Chromium is not installed.
 *
 * One file although long: the step's states in order on one server and one Chromium, which take
 * seconds each to start.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { messagesFor } from '../../src/i18n/index.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { freePort, type ServerRun } from '../embedded/server-process.js';
import { chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';
import { seriousViolations } from '../support/serious-violations.js';
import { eventually } from '../support/eventually.js';

const TITLE = 'Consulting Agreement';
const en = messagesFor('en');
const ar = messagesFor('ar');

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

/** One signer, Client, who proves by e-mail who they are before seeing the document. */
const verifiedTemplate = (): TemplateDefinition => ({
  name: `${TITLE} ${crypto.randomUUID().slice(0, 8)}`,
  email_subject: 'Please sign the agreement',
  email_message: null,
  expiry_days: 30,
  reminders: { first_after_days: 2, every_days: 3 },
  signing_order: 'parallel',
  share_signing_links: true,
  roles: [{ name: 'Client', type: 'signer', order: 1, locked: false, verification: 'email_code' }],
  fields: [{ role: 'Client', type: 'signature', page: 2, x: 72, y: 640, width: 200, height: 40, required: true }],
});

type Mail = { to: { email: string }; text: string; tags?: Record<string, string> };
type Sent = { envelopeId: string; recipientId: string; email: string; link: string };

/** A code that is not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

explainSkipWithoutChromium('the verification step');

describe.skipIf(chromiumMissing !== null)('the verification step of the signing page, in Chromium', () => {
  let scratch: string;
  let server: ServerRun & { output: string };
  let base: string;
  let adminToken: string;
  let bearer: string;
  let templateId: string;
  let browser: Browser;
  let desktop: BrowserContext;
  /** The envelope verified with the keyboard alone, for the second browser to open. */
  let keyboardVerified: Sent;

  async function mailbox(): Promise<Mail[]> {
    const response = await fetch(`${base}/dev/mailbox.json`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Mail[] }).data;
  }

  /** The newest mail of `kind` to this recipient, once the mailbox has it. */
  async function mailOf(recipientId: string, kind: string): Promise<Mail> {
    let found: Mail | undefined;
    await vi.waitFor(async () => {
      found = (await mailbox()).find((mail) => mail.tags?.kind === kind && mail.tags.recipient_id === recipientId);
      expect(found, `a ${kind} e-mail to ${recipientId}`).toBeDefined();
    }, eventually);
    return found!;
  }

  /** The six digits of the newest code e-mail to this recipient. */
  async function emailedCode(recipientId: string): Promise<string> {
    const mail = await mailOf(recipientId, 'verification_code');
    const code = / is (\d{6})\./.exec(mail.text)?.[1];
    expect(code, mail.text).toMatch(/^\d{6}$/);
    return code!;
  }

  /** A fresh envelope of the template to one signer: the link is the one their e-mail carries. */
  async function send(): Promise<Sent> {
    const email = `dana-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const sent = await fetch(`${base}/v1/envelopes/from-template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ template_id: templateId, recipients: [{ role: 'Client', name: 'Dana Client', email }] }),
    });
    const answer = (await sent.json()) as { envelope_id: string; signing_urls: { email: string; recipient_id: string; signing_url: string | null }[] };
    expect(sent.status, JSON.stringify(answer)).toBe(201);
    const entry = answer.signing_urls.find((candidate) => candidate.email === email)!;
    const mail = await mailOf(entry.recipient_id, 'signing_request');
    const link = /https?:\/\/\S+\/sign\/\S+/.exec(mail.text)?.[0];
    expect(link).toBe(entry.signing_url);
    return { envelopeId: answer.envelope_id, recipientId: entry.recipient_id, email, link: link! };
  }

  /** The step, not the document: its heading, and no PDF, no form to sign, no link to the document. */
  async function expectStep(page: Page, language: 'en' | 'ar' = 'en') {
    const m = language === 'ar' ? ar : en;
    await page.getByRole('heading', { level: 1, name: m.text('verify.title') }).waitFor();
    expect(await page.locator('canvas.page-canvas, [data-sign-form], [data-document], a[href*="document.pdf"], iframe, embed, object').count()).toBe(0);
    expect(await page.content()).not.toContain('document.pdf');
  }

  /** The sign page: the document drawn by pdf.js, and the form to sign it. */
  async function expectDocument(page: Page) {
    await page.locator('[data-sign-form]').waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('canvas.page-canvas').length > 0 && document.querySelector('[data-pages-status]')?.textContent === '',
      null,
      { timeout: 30_000 },
    );
    expect(await page.getByRole('heading', { level: 1, name: new RegExp(`^${TITLE}`) }).count()).toBe(1);
  }

  const maskedOf = (email: string) => `${email[0]}***@example.com`;

  /** The words of an element as a reader meets them: its text with the markup's line breaks as single spaces. */
  const textOf = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'esign-verification-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(
      port,
      join(scratch, 'data'),
      (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
    );
    adminToken = printed(server.output, 'Admin token')!;
    const companyId = printed(server.output, 'Company id')!;
    expect(adminToken).toMatch(/^adm_/);

    const form = new FormData();
    form.set('template', JSON.stringify(verifiedTemplate()));
    form.set('document', new Blob([(await generateDocument(TITLE, 2, nodeFontSource())) as BlobPart], { type: 'application/pdf' }), 'agreement.pdf');
    const imported = await fetch(`${base}/admin/v1/companies/${companyId}/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      body: form,
    });
    const template = (await imported.json()) as { id: string; roles: { name: string; verification: string }[] };
    expect(imported.status, JSON.stringify(template)).toBe(201);
    expect(template.roles).toEqual([expect.objectContaining({ name: 'Client', verification: 'email_code' })]);
    templateId = template.id;

    const exchanged = await fetch(`${base}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: printed(server.output, 'API key') }),
    });
    expect(exchanged.status).toBe(200);
    bearer = ((await exchanged.json()) as { access_token: string }).access_token;
    desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    desktop.setDefaultTimeout(20_000);
  });

  afterAll(async () => {
    await browser?.close();
    if (server) {
      server.kill();
      await server.ended;
    }
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('opens on the step: the title and the masked address, nothing of the document, no serious axe-core violation in English and Arabic', async () => {
    const { link, email } = await send();
    const page = await desktop.newPage();
    const found: Record<string, string[]> = {};

    expect((await page.goto(link))?.status()).toBe(200);
    await expectStep(page);
    const main = await textOf(page.locator('main'));
    expect(main).toContain(TITLE);
    expect(main).toContain(`We will send a six-digit code by e-mail to ${maskedOf(email)}.`);
    expect(await page.content()).not.toContain(email);
    expect(await page.getByRole('button', { name: en.text('verify.send') }).isEnabled()).toBe(true);
    // The PDF itself is refused to this browser, not only left unlinked.
    expect((await page.request.get(`${link}/document.pdf`)).status()).toBe(403);
    found.en = await seriousViolations(page);

    expect((await page.goto(`${link}?lang=ar`))?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await expectStep(page, 'ar');
    expect(await textOf(page.locator('main'))).toContain(TITLE);
    expect(await textOf(page.locator('main'))).toContain(maskedOf(email));
    found.ar = await seriousViolations(page);

    await page.close();
    expect(found).toEqual({ en: [], ar: [] });
  });

  it('sends the code, refuses a wrong one with an announced message, opens the document for the right one; the signer signs and the envelope completes', async () => {
    const { link, email, recipientId, envelopeId } = await send();
    const page = await desktop.newPage();
    const found: Record<string, string[]> = {};
    await page.goto(link);
    await expectStep(page);

    await page.getByRole('button', { name: en.text('verify.send') }).click();
    const code = page.getByRole('textbox', { name: en.text('verify.codeLabel') });
    await code.waitFor();
    expect(await textOf(page.locator('main'))).toContain(`We sent a six-digit code by e-mail to ${maskedOf(email)}.`);
    await expectStep(page);
    found['code sent'] = await seriousViolations(page);
    const mail = await mailOf(recipientId, 'verification_code');
    expect(mail.to.email).toBe(email);
    const right = await emailedCode(recipientId);

    await code.fill(otherThan(right));
    const [refused] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes('/verify')),
      page.getByRole('button', { name: en.text('verify.submit') }).click(),
    ]);
    expect(refused.status()).toBe(422);
    // The page announces the refusal as an alert (role="alert"), marks the input as invalid (the
    // token `true`, quotes not included), describes it by the error, and puts the signer back in it.
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await textOf(alert)).toBe(en.text('verify.wrong', { left: 4 }));
    expect(await code.getAttribute('aria-invalid'), 'aria-invalid of the code input').toBe('true');
    await expect.poll(() => code.evaluate((input) => input === document.activeElement)).toBe(true);
    const describedBy = (await code.getAttribute('aria-describedby'))?.split(' ') ?? [];
    expect(await page.locator(`#${describedBy[0]}`).getAttribute('role')).toBe('alert');
    await expectStep(page);
    found['wrong code'] = await seriousViolations(page);

    await code.fill(right);
    await page.getByRole('button', { name: en.text('verify.submit') }).click();
    await expectDocument(page);
    expect(found, 'serious or critical axe-core violations').toEqual({ 'code sent': [], 'wrong code': [] });

    // Signing as signing.browser.test.ts's Witness does: a typed signature, the consent, Sign.
    await page.getByRole('textbox', { name: 'Type your full name' }).fill('Dana Client');
    await page.getByRole('checkbox', { name: /I agree to sign this document electronically/ }).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: en.text('completed.title') }).waitFor();

    await vi.waitFor(async () => {
      const audit = await fetch(`${base}/admin/v1/envelopes/${envelopeId}/audit`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(audit.status).toBe(200);
      const trail = (await audit.json()) as { status: string; events: { kind: string }[] };
      expect(trail.status).toBe('completed');
      expect(trail.events.map((event) => event.kind)).toEqual(
        expect.arrayContaining(['recipient.code_sent', 'recipient.code_failed', 'recipient.verified', 'recipient.signed']),
      );
    }, eventually);
    await page.close();
  });

  it('asks for the code and enters it with the keyboard alone', async () => {
    keyboardVerified = await send();
    const page = await desktop.newPage();
    await page.goto(keyboardVerified.link);
    await expectStep(page);

    /** What has the focus, in words a test can act on. */
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (!active || active === document.body) return 'body';
        if (active.id === 'verification-code') return 'code';
        if (active.matches('form[action*="/code"] button[type="submit"]')) return 'send';
        if (active.matches('form[action*="/verify"] button[type="submit"]')) return 'confirm';
        return active.tagName.toLowerCase();
      });
    const tabTo = async (wanted: string) => {
      const reached: string[] = [];
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        reached.push(await focused());
        if (reached.at(-1) === wanted) return;
      }
      throw new Error(`Tab never reached ${wanted}: ${reached.join(' → ')}`);
    };

    await tabTo('send');
    await page.keyboard.press('Enter');
    await page.locator('#verification-code').waitFor();
    const right = await emailedCode(keyboardVerified.recipientId);

    await tabTo('code');
    await page.keyboard.type(right);
    // Enter in the code input submits its form, as in any form.
    await page.keyboard.press('Enter');
    await expectDocument(page);
    await page.close();
  });

  it('another browser opening the same link meets the step again, not the document', async () => {
    expect(keyboardVerified, 'the envelope verified with the keyboard').toBeDefined();
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    other.setDefaultTimeout(20_000);
    try {
      const page = await other.newPage();
      expect((await page.goto(keyboardVerified.link))?.status()).toBe(200);
      await expectStep(page);
      expect(await page.getByRole('button', { name: en.text('verify.send') }).count()).toBe(1);
      expect((await page.request.get(`${keyboardVerified.link}/document.pdf`)).status()).toBe(403);
    } finally {
      await other.close();
    }

    // The browser that entered the code keeps its proof: the plain link opens the document there.
    const page = await desktop.newPage();
    await page.goto(keyboardVerified.link);
    await expectDocument(page);
    expect((await page.request.get(`${keyboardVerified.link}/document.pdf`)).status()).toBe(200);
    await page.close();
  });
});
