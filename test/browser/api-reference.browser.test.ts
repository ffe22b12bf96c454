/**
 * The API reference at /docs in a real Chromium, on the embedded server started as `npm start`
 * starts it: Redoc, loaded from the service itself, renders the service's own OpenAPI document
 * (its tags, the operations under them, the webhook events) and its search (a blob: worker) finds
 * an operation, while the page asks no other origin for anything and its content policy refuses
 * nothing. A screenshot is saved in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, type ServerRun } from '../embedded/server-process.js';
import { chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';

const ARTIFACTS = join(projectRoot, 'test', 'artifacts');

explainSkipWithoutChromium('the API reference');

describe.skipIf(chromiumMissing !== null)('the API reference in Chromium, on the embedded server', () => {
  let scratch: string;
  let server: ServerRun | undefined;
  let browser: Browser | undefined;
  let base: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'esign-docs-browser-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(
      port,
      join(scratch, 'data'),
      (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('renders the operations under their tags and the webhook events, asking no other origin: the policy refuses the one image Redoc would fetch from its CDN', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requested: string[] = [];
    const errors: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // A request the page's policy refuses is reported, then failed by the browser before it is sent.
    const blocked: string[] = [];
    page.on('requestfailed', (request) => {
      if (/BLOCKED_BY_CSP|csp/i.test(request.failure()?.errorText ?? '')) blocked.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    await page.exposeBinding('__reportCspViolation', (_source, text: string) => void refused.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
        void report(`${event.effectiveDirective} refused ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
      });
    });

    const answer = await page.goto(`${base}/docs`);
    expect(answer?.status()).toBe(200);
    // Redoc's operation titles, once it has fetched and rendered the document.
    const title = page.locator('h2', { hasText: 'Create an envelope from a template and send it' });
    await title.waitFor({ timeout: 30_000 });
    await expect(page.locator('h1', { hasText: 'E-Signing API' }).first().isVisible()).resolves.toBe(true);
    const menu = page.locator('[role="menu"], .menu-content').first();
    for (const tag of ['Authentication', 'Templates', 'Contacts', 'Envelopes', 'Webhooks']) {
      await expect(menu.getByText(tag, { exact: true }).first().isVisible(), tag).resolves.toBe(true);
    }
    // An event of the document's `webhooks` section, rendered as an operation of its own.
    await page.locator('h2', { hasText: 'The finished, signed PDF is ready' }).waitFor({ timeout: 10_000 });
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference.png') });
    await title.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-send-envelope.png') });

    // The search runs in the worker Redoc makes from a blob: URL, which the policy allows.
    await page.getByPlaceholder('Search...').fill('signing links');
    await page.locator('[data-role="search:results"] [role="menuitem"]', { hasText: 'Get the signing links of a sent envelope' }).waitFor({ timeout: 15_000 });

    const foreign = requested.filter((url) => !url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== base);
    expect(foreign.filter((url) => !blocked.includes(url))).toEqual([]);
    expect(requested).toContain(`${base}/static/vendor/redoc/redoc.standalone.js`);
    expect(requested).toContain(`${base}/v1/openapi.json`);
    // Redoc as shipped asks Redocly's CDN for its footer logo: the policy refuses it, and that is
    // the one refusal (the browser fails it before sending it, as `blocked` shows).
    expect(refused).toEqual([expect.stringMatching(/^img-src refused https:\/\/cdn\.redoc\.ly\//)]);
    expect(errors.filter((error) => !/cdn\.redoc\.ly/.test(error))).toEqual([]);
    await context.close();
  });
});
