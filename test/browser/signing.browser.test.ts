/**
 * The signing ceremony in a real browser, as people meet it: the embedded server started as
 * `npm start` starts it (so pdf.js's static files, the signing page, the queue and the dev mailbox
 * all run for real), the demo NDA sent through the API with the printed key, each signer's link
 * taken from the e-mail in the dev mailbox, and Chromium (playwright-core, Debian's binary) doing
 * what the signers do: the Client on a desktop draws a signature with the mouse, the Witness on a
 * phone types one. The finished PDF is then downloaded through the link and read with poppler.
 *
 * Skipped only when Chromium is not installed; any other missing piece (poppler, the server) fails.
 *
 * One file although long: the ceremony's steps run in order on one server and one Chromium, which
 * take seconds each to start.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consent } from '../../src/domain/signing/signing-state.js';
import { freePort, projectRoot, type ServerRun } from '../embedded/server-process.js';
import { chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';

const run = promisify(execFile);

const NDA = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const CLIENT = { role: 'Client', name: 'Cleo Client', email: 'cleo@example.com' };
const WITNESS = { role: 'Witness', name: 'Will Witness', email: 'will@example.com' };
/** Unlike the names, these appear nowhere else in the finished PDF, so finding them proves they were drawn in. */
const COMPANY_VALUE = 'Cleo Industries Ltd';
const WITNESS_TYPED = 'W. T. Witness';
const ARTIFACTS = join(projectRoot, 'test', 'artifacts');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

type Field = { role: string; type: string; page: number; x: number; y: number; width: number; height: number };

/** What a page reported that a signer would never want: console errors, script errors, refused content. */
type Watch = { errors: string[]; csp: string[] };

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `probe` until it answers something, at most `timeoutMs`; the queue and the e-mails come after the answers. */
async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Gave up after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

async function pdfText(path: string, page?: number): Promise<string> {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  const { stdout } = await run('pdftotext', ['-layout', ...range, path, '-']);
  return stdout;
}

async function pdfPages(path: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [path]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

explainSkipWithoutChromium('the signing ceremony');

describe.skipIf(chromiumMissing !== null)('the signing ceremony in Chromium, on the embedded server', () => {
  let scratch: string;
  let server: ServerRun & { output: string };
  let base: string;
  let adminToken: string;
  let bearer: string;
  let browser: Browser;
  let desktop: BrowserContext;
  let phone: BrowserContext;
  let fields: Field[];
  let envelopeId: string;
  let answeredLinks: Record<string, string | null>;
  let clientLink: string;
  let witnessLink: string;
  let finishedPath: string;
  let finishedBytes: Buffer;
  /** The steps build on each other: after a failed one, the next ones say so instead of failing for it. */
  let failedStep: string | null = null;
  const independent = new Set<string>();

  /** A page whose console errors, uncaught errors and CSP violations are collected as they happen. */
  async function watchedPage(context: BrowserContext): Promise<{ page: Page; watch: Watch }> {
    const page = await context.newPage();
    const watch: Watch = { errors: [], csp: [] };
    page.on('console', (message) => {
      if (message.type() === 'error') watch.errors.push(`console (${message.location().url}): ${message.text()}`);
    });
    page.on('pageerror', (error) => watch.errors.push(`uncaught: ${error.message}`));
    // pdf.js runs in a worker: its errors would not reach the page's console.
    page.on('worker', (worker) =>
      worker.on('console', (message) => {
        if (message.type() === 'error') watch.errors.push(`worker ${worker.url()}: ${message.text()}`);
      }),
    );
    // A binding survives navigations (the form's post, its redirect), unlike a list kept in the page.
    await page.exposeBinding('__reportCspViolation', (_source, text: string) => void watch.csp.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
        void report(`${event.effectiveDirective} refused ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
      });
    });
    return { page, watch };
  }

  /** The pdf.js pages: one drawn canvas per page of the document, with ink on each. */
  async function expectEveryPageRendered(page: Page, documentPages: number) {
    await page.waitForFunction(
      (pages) =>
        document.querySelectorAll('.page-sheet canvas.page-canvas').length === pages && document.querySelector('[data-pages-status]')?.textContent === '',
      documentPages,
      { timeout: 30_000 },
    );
    expect(await page.locator('.page').count()).toBe(documentPages);
    const inkPerCanvas = await page.$$eval('canvas.page-canvas', (canvases) =>
      (canvases as HTMLCanvasElement[]).map((canvas) => {
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && data[i]! < 128) dark++;
        return dark;
      }),
    );
    expect(inkPerCanvas).toHaveLength(documentPages);
    for (const ink of inkPerCanvas) expect(ink).toBeGreaterThan(100);
    expect(await page.textContent('[data-pages-status]')).toBe('');
  }

  /** The box of `field` sits over its page's drawing where the template places it, on top of it. */
  async function expectBoxOver(page: Page, selector: string, field: Field) {
    const geometry = await page.$eval(selector, (box) => {
      const sheet = box.closest('.page')!;
      const canvas = sheet.querySelector('canvas.page-canvas')!;
      const own = box.getBoundingClientRect();
      const drawn = canvas.getBoundingClientRect();
      // Instantly: the page scrolls smoothly otherwise, and the box would not be there yet.
      box.scrollIntoView({ block: 'center', behavior: 'instant' });
      const moved = box.getBoundingClientRect();
      const topmost = document.elementFromPoint(moved.left + moved.width / 2, moved.top + moved.height / 2);
      return {
        page: Number((sheet as HTMLElement).dataset.page),
        width: Number((sheet as HTMLElement).dataset.width),
        height: Number((sheet as HTMLElement).dataset.height),
        box: { left: own.left, top: own.top, width: own.width, height: own.height },
        canvas: { left: drawn.left, top: drawn.top, width: drawn.width, height: drawn.height },
        onTop: topmost !== null && box.contains(topmost),
      };
    });
    expect(geometry.page).toBe(field.page);
    const scale = geometry.canvas.width / geometry.width;
    expect(scale).toBeGreaterThan(0);
    // Within 1.5 PDF points of where the template puts it, on the drawn page.
    const points = (pixels: number) => pixels / scale;
    expect(Math.abs(points(geometry.box.left - geometry.canvas.left) - field.x)).toBeLessThan(1.5);
    expect(Math.abs(points(geometry.box.top - geometry.canvas.top) - field.y)).toBeLessThan(1.5);
    expect(Math.abs(points(geometry.box.width) - field.width)).toBeLessThan(1.5);
    expect(Math.abs(points(geometry.box.height) - field.height)).toBeLessThan(1.5);
    expect(Math.abs(geometry.canvas.height / geometry.canvas.width - geometry.height / geometry.width)).toBeLessThan(0.01);
    expect(geometry.onTop).toBe(true);
  }

  /** Nothing sticks out sideways: no horizontal scrolling at this viewport. */
  async function expectNoSidewaysScroll(page: Page) {
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
  }

  /** The signing e-mail to `email` as the dev mailbox shows it, and the link in its text. */
  async function mailedLink(email: string): Promise<string> {
    return poll(`the signing e-mail to ${email}`, async () => {
      const mail = (await mailbox()).find((entry) => entry.to.email === email && entry.tags?.kind === 'signing_request');
      return mail ? /https?:\/\/\S+\/sign\/\S+/.exec(mail.text)?.[0] : undefined;
    });
  }

  async function mailbox(): Promise<{ to: { email: string }; subject: string; text: string; tags?: Record<string, string> }[]> {
    const response = await fetch(`${base}/dev/mailbox.json`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: never[] }).data;
  }

  async function admin(path: string) {
    return fetch(`${base}/admin/v1${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `browser-${name}.png`), fullPage: true });

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    scratch = await mkdtemp(join(tmpdir(), 'esign-browser-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(
      port,
      join(scratch, 'data'),
      (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
    );
    adminToken = printed(server.output, 'Admin token')!;
    const apiKey = printed(server.output, 'API key')!;
    expect(adminToken).toMatch(/^adm_/);
    expect(apiKey).toMatch(/^esk_test_/);
    const exchanged = await fetch(`${base}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: apiKey }),
    });
    expect(exchanged.status).toBe(200);
    bearer = ((await exchanged.json()) as { access_token: string }).access_token;
    desktop = await browser.newContext({ viewport: DESKTOP });
    phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    // Long enough for pdf.js on a busy machine, short enough that a missing element fails within a step's time.
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

  beforeEach(({ task, onTestFailed }) => {
    if (failedStep !== null && !independent.has(task.name)) throw new Error(`Not run: the earlier step "${failedStep}" failed`);
    onTestFailed(() => {
      failedStep ??= task.name;
    });
  });

  it('sends the demo NDA with the printed key, and e-mails the Client alone first', async () => {
    const template = await fetch(`${base}/v1/templates/${NDA}`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(template.status).toBe(200);
    fields = ((await template.json()) as { fields: Field[] }).fields;

    const sent = await fetch(`${base}/v1/envelopes/from-template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ template_id: NDA, recipients: [CLIENT, WITNESS] }),
    });
    const answer = (await sent.json()) as { envelope_id: string; signing_urls: { email: string; signing_url: string | null }[] };
    expect(sent.status, JSON.stringify(answer)).toBe(201);
    envelopeId = answer.envelope_id;
    answeredLinks = Object.fromEntries(answer.signing_urls.map((entry) => [entry.email, entry.signing_url]));

    clientLink = await mailedLink(CLIENT.email);
    expect(clientLink).toBe(answeredLinks[CLIENT.email]);
    expect(clientLink.startsWith(`${base}/sign/`)).toBe(true);
    // Sequential: the Witness is asked only once the Client has signed; the cc Counsel never.
    const mails = await mailbox();
    expect(mails.filter((mail) => mail.tags?.kind === 'signing_request').map((mail) => mail.to.email)).toEqual([CLIENT.email]);
  });

  it('the Client, on a desktop, sees every page drawn with the fields over them, reaches the form by keyboard, draws a signature and signs', async () => {
    const { page, watch } = await watchedPage(desktop);
    const response = await page.goto(clientLink);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { level: 1, name: 'Mutual NDA' }).waitFor();

    const original = await page.request.get(`${clientLink}/document.pdf`);
    expect(original.status()).toBe(200);
    const originalPath = join(scratch, 'original.pdf');
    await writeFile(originalPath, await original.body());
    const documentPages = await pdfPages(originalPath);
    expect(documentPages).toBe(2);
    await expectEveryPageRendered(page, documentPages);

    const signature = fields.find((field) => field.role === 'Client' && field.type === 'signature')!;
    const company = fields.find((field) => field.role === 'Client' && field.type === 'text')!;
    expect(signature.page).toBe(2);
    await expectBoxOver(page, '.field-box-signature', signature);
    await expectBoxOver(page, 'a.field-box-text', company);
    await expectNoSidewaysScroll(page);

    // Keyboard: from the top of the page, Tab alone reaches the consent box and then the Sign button.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    const reached: string[] = [];
    for (let i = 0; i < 80 && !reached.includes('sign'); i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(() => {
          const active = document.activeElement as HTMLElement | null;
          if (!active || active === document.body) return 'body';
          if (active.id === 'input-consent') return active.matches(':focus-visible') ? 'consent' : 'consent (no focus ring)';
          if (active.matches('button[type="submit"]') && active.closest('[data-sign-form]'))
            return active.matches(':focus-visible') ? 'sign' : 'sign (no focus ring)';
          return `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''}`;
        }),
      );
    }
    expect(reached, reached.join(' → ')).toContain('consent');
    expect(reached, reached.join(' → ')).toContain('sign');
    expect(reached.indexOf('consent')).toBeLessThan(reached.indexOf('sign'));

    await page.getByRole('textbox', { name: 'Company' }).fill(COMPANY_VALUE);
    expect(await page.locator('a.field-box-text [data-box-text]').textContent()).toBe(COMPANY_VALUE);

    // Drawing: the mode switch, then strokes with the mouse on the pad (Pointer Events).
    await page.getByRole('radio', { name: 'Draw' }).check();
    const pad = page.locator('canvas[data-pad]');
    await pad.scrollIntoViewIfNeeded();
    const area = (await pad.boundingBox())!;
    expect(area.width).toBeGreaterThan(200);
    const at = (fx: number, fy: number) => [area.x + area.width * fx, area.y + area.height * fy] as const;
    const strokes: [number, number][][] = [
      [
        [0.08, 0.7],
        [0.14, 0.25],
        [0.2, 0.75],
        [0.26, 0.3],
        [0.32, 0.7],
      ],
      [
        [0.4, 0.35],
        [0.36, 0.65],
        [0.46, 0.7],
        [0.52, 0.4],
        [0.48, 0.3],
      ],
      [
        [0.58, 0.72],
        [0.66, 0.28],
        [0.7, 0.72],
        [0.78, 0.5],
        [0.92, 0.55],
      ],
    ];
    for (const stroke of strokes) {
      const [first, ...rest] = stroke;
      await page.mouse.move(...at(...first!));
      await page.mouse.down();
      for (const point of rest) await page.mouse.move(...at(...point), { steps: 6 });
      await page.mouse.up();
    }
    const drawn = page.locator('input[data-drawn-value]');
    expect(await drawn.inputValue()).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    // The drawing, not the (empty) typed input, is what the form posts as the signature.
    expect(await drawn.getAttribute('name')).toMatch(/^field\./);
    // (The typed input is hidden while drawing, so it is found by its place, not by its role.)
    expect(await page.locator('[data-typed] input').getAttribute('name')).toBeNull();
    await page.locator('.field-box-signature img').waitFor({ state: 'attached' });

    await page.getByRole('checkbox', { name: /I agree to sign this document electronically/ }).check();
    await page.locator('.field-box-signature').scrollIntoViewIfNeeded();
    await shot(page, 'client-desktop-before-signing');

    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'You have signed' }).waitFor();
    expect(page.url()).toBe(clientLink);
    await shot(page, 'client-desktop-signed');

    expect(watch.errors).toEqual([]);
    expect(watch.csp).toEqual([]);
  });

  it('the Witness, on a phone, gets the e-mail next, types a signature, signs, and is offered the finished PDF', async () => {
    witnessLink = await mailedLink(WITNESS.email);
    expect(witnessLink).toBe(answeredLinks[WITNESS.email]);
    const { page, watch } = await watchedPage(phone);
    expect((await page.goto(witnessLink))?.status()).toBe(200);
    await expectEveryPageRendered(page, 2);
    await expectBoxOver(page, '.field-box-signature', fields.find((field) => field.role === 'Witness' && field.type === 'signature')!);
    await expectNoSidewaysScroll(page);

    // Typed, the default: no drawing.
    const typed = page.getByRole('textbox', { name: 'Type your full name' });
    await typed.tap();
    await typed.pressSequentially(WITNESS_TYPED);
    expect(await page.locator('.field-box-signature [data-box-text]').textContent()).toBe(WITNESS_TYPED);
    expect(await page.locator('canvas[data-pad]').isVisible()).toBe(false);
    const agree = page.getByRole('checkbox', { name: /I agree to sign this document electronically/ });
    await agree.tap();
    expect(await agree.isChecked()).toBe(true);
    await shot(page, 'witness-phone-before-signing');

    await page.getByRole('button', { name: 'Sign', exact: true }).tap();
    await page.getByRole('heading', { level: 1, name: 'Everyone has signed' }).waitFor();

    // The finished PDF is made by a queue job after the answer: the page says so until it is there.
    // Each reload counts against the link's 60 requests in 15 minutes, hence one every half second
    // for at most 20 seconds.
    const download = page.getByRole('link', { name: 'Download the signed document (PDF)' });
    await poll(
      'the completed page to offer the finished PDF',
      async () => {
        if (await download.count()) return true;
        await sleep(500);
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Everyone has signed' }).waitFor();
        return undefined;
      },
      20_000,
      0,
    );
    await expectNoSidewaysScroll(page);
    await shot(page, 'witness-phone-completed');

    const token = witnessLink.split('/sign/')[1]!;
    expect(await download.getAttribute('href')).toBe(`/sign/${token}/document.pdf?download=1`);
    const [saved] = await Promise.all([page.waitForEvent('download'), download.tap()]);
    expect(saved.suggestedFilename()).toMatch(/\.pdf$/);
    finishedPath = join(scratch, 'finished.pdf');
    await saved.saveAs(finishedPath);
    finishedBytes = await readFile(finishedPath);
    expect(finishedBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    expect(watch.errors).toEqual([]);
    expect(watch.csp).toEqual([]);
  });

  it('the downloaded PDF holds both signatures, the text, and the certificate', async () => {
    const pages = await pdfPages(finishedPath);
    expect(pages).toBeGreaterThan(2);
    expect(await pdfText(finishedPath, 1)).toContain(COMPANY_VALUE);
    expect(await pdfText(finishedPath, 2)).toContain(WITNESS_TYPED);
    const all = await pdfText(finishedPath);
    expect(all).toContain('Certificate of completion');
    expect(all).toContain(CLIENT.name);
    expect(all).toContain(WITNESS.name);
    expect(all).toContain(consent.version);
    expect(all).toContain(envelopeId);

    // The Client's drawing: the 600×200 PNG of the pad, an image (with its alpha as a soft mask) on page 2 only.
    const { stdout } = await run('pdfimages', ['-list', finishedPath]);
    const images = stdout
      .split('\n')
      .slice(2)
      .map((line) => line.trim().split(/\s+/))
      .filter((columns) => columns.length > 5)
      .map(([page, , type, width, height]) => ({ page: Number(page), type, width: Number(width), height: Number(height) }));
    expect(
      images.filter((image) => image.type === 'image'),
      stdout,
    ).toEqual([{ page: 2, type: 'image', width: 600, height: 200 }]);
  });

  it('the downloaded bytes are the ones whose hash the service announces', async () => {
    const hash = sha256(finishedBytes);
    const document = await admin(`/envelopes/${envelopeId}/document`);
    expect(document.status).toBe(200);
    expect(document.headers.get('x-document-sha256')).toBe(hash);
    expect(sha256(new Uint8Array(await document.arrayBuffer()))).toBe(hash);

    const audit = await admin(`/envelopes/${envelopeId}/audit`);
    expect(audit.status).toBe(200);
    const trail = (await audit.json()) as { status: string; events: { kind: string; data: Record<string, unknown> }[] };
    expect(trail.status).toBe('completed');
    const ready = trail.events.filter((event) => event.kind === 'envelope.document_ready');
    expect(ready).toHaveLength(1);
    expect(ready[0]!.data.sha256).toBe(hash);
    expect(ready[0]!.data.size).toBe(finishedBytes.length);
  });

  it("is sealed by the server's own certificate: the README's pdfsig line and its check in code both say so", async () => {
    // pdfsig exactly as the README runs it: no trust store knows the self-signed seal, the signature still verifies.
    const report = await run('pdfsig', [finishedPath]).then(
      ({ stdout }) => stdout,
      (err: { stdout: string }) => err.stdout,
    );
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signer Certificate Common Name: E-Signing API local seal (self-signed)');
    // The certificate page prints the seal's fingerprint; examples/verify-seal.mjs holds the file to it.
    const fingerprint = /Certificate SHA-256:\s+([0-9A-F:]{95})/.exec(await pdfText(finishedPath))![1]!;
    const checked = await run(process.execPath, ['examples/verify-seal.mjs', finishedPath, sha256(finishedBytes), fingerprint]);
    expect(checked.stdout).toContain('signature:           valid');
    expect(checked.stdout).toMatch(/\nOK\n$/);
  });

  it("the Client's link now shows the completed document, and a tampered link the invalid page", async () => {
    const { page, watch } = await watchedPage(desktop);
    expect((await page.goto(clientLink))?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Everyone has signed' }).waitFor();
    const clientToken = clientLink.split('/sign/')[1]!;
    expect(await page.getByRole('link', { name: 'Download the signed document (PDF)' }).getAttribute('href')).toBe(
      `/sign/${clientToken}/document.pdf?download=1`,
    );
    await shot(page, 'client-desktop-completed');
    expect(watch.errors).toEqual([]);
    expect(watch.csp).toEqual([]);

    // One character of the MAC changed: the link still has a link's shape, but is not one.
    const [recipientId, mac] = clientToken.split('.') as [string, string];
    const middle = Math.floor(mac.length / 2);
    const tampered = `${recipientId}.${mac.slice(0, middle)}${mac[middle] === 'A' ? 'B' : 'A'}${mac.slice(middle + 1)}`;
    const invalid = await watchedPage(desktop);
    const answer = await invalid.page.goto(`${base}/sign/${tampered}`);
    expect(answer?.status()).toBe(404);
    await invalid.page.getByRole('heading', { level: 1, name: 'This link is not valid' }).waitFor();
    expect(await invalid.page.textContent('main')).not.toContain('Mutual NDA');
    await shot(invalid.page, 'invalid-link-desktop');
    // The browser reports the 404 of the page itself; nothing else may be reported.
    const ownNotFound = (error: string) => error.includes(`/sign/${tampered}`) && /status of 404/.test(error);
    expect(invalid.watch.errors.filter((error) => !ownNotFound(error))).toEqual([]);
    expect(invalid.watch.csp).toEqual([]);

    // The CSP watch is live: an inline style, which the policy refuses, is reported by it.
    await invalid.page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: red }';
      document.head.append(style);
    });
    await poll('the CSP violation of an inline style', async () => (invalid.watch.csp.length > 0 ? true : undefined), 5_000, 50);
    expect(invalid.watch.csp[0]).toMatch(/^style-src/);
  });

  const serverLogStep = 'the server logged nothing but its start';
  independent.add(serverLogStep);
  it(serverLogStep, () => {
    const logged = server
      .stderr()
      .split('\n')
      .filter((line) => line && !line.startsWith('npm warn'));
    expect(logged).toEqual([]);
  });
});
