/**
 * Embedded signing in a real browser: the integrator's page on one origin (a small Node server of
 * this test on http://localhost:<port>) frames the signing page of the embedded server on another
 * (http://127.0.0.1:<port>, its BASE_URL) with /static/embed.js. Two different sites, as an
 * integrator's app and the service are, and no cookie involved anywhere.
 *
 * What a signer and an integrator see: the page loads in the frame only for an allowed parent
 * (another parent gets a refused frame), the signer signs inside it, the parent is told ready,
 * viewed, signed (and completed for the last signer) in that order, and nothing is told to a
 * parent other than the one the link names.
 *
 * Skipped only when Chromium is not installed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerRun, freePort } from '../embedded/server-process.js';
import { chromiumMissing, explainSkipWithoutChromium, startServerAndChromium } from '../support/browser-session.js';

const NDA = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const CLIENT = { role: 'Client', name: 'Cleo Client', email: 'cleo@example.com' };
const WITNESS = { role: 'Witness', name: 'Will Witness', email: 'will@example.com' };

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

type EsignEvent = { type: string; envelope_id: string; recipient_id: string };
type RawMessage = { origin: string; data: unknown };

/** What one parent page received, as it arrives; `until` waits for the list to satisfy a condition. */
class Inbox<T> {
  readonly items: T[] = [];
  private waiters: (() => void)[] = [];
  push(item: T) {
    this.items.push(item);
    for (const wake of this.waiters.splice(0)) wake();
  }
  async until(what: string, done: (items: T[]) => boolean, timeoutMs = 30_000): Promise<T[]> {
    const timeout = new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(new Error(`Gave up waiting for ${what}; received ${JSON.stringify(this.items)}`)), timeoutMs);
      timer.unref();
    });
    while (!done(this.items)) await Promise.race([new Promise<void>((wake) => this.waiters.push(wake)), timeout]);
    return this.items;
  }
}

/**
 * The integrator's page: embed.js from the service, and every message it gets, raw (any origin)
 * and through ESign's callback, reported to the test. `frameRaw` frames a URL without embed.js,
 * to name another parent on the link.
 */
const parentPage = (service: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Integrator</title>
<script src="${service}/static/embed.js"></script></head>
<body><h1>Integrator's app</h1><div id="signing"></div>
<script>
  window.addEventListener('message', (event) => window.__raw({ origin: event.origin, data: event.data }));
  window.mountLink = (link) => {
    const mounted = ESign.mount(document.getElementById('signing'), link, { onEvent: (event) => window.__event(event) });
    return new Promise((resolve) => mounted.frame.addEventListener('load', () => resolve(mounted.frame.src), { once: true }));
  };
  window.frameRaw = (url) => {
    const frame = document.createElement('iframe');
    frame.src = url;
    document.body.append(frame);
    return new Promise((resolve) => frame.addEventListener('load', () => resolve(true), { once: true }));
  };
</script></body></html>`;

async function serveParent(service: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/app')) response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(parentPage(service));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

explainSkipWithoutChromium('embedded signing');

describe.skipIf(chromiumMissing !== null)('embedded signing in Chromium, on the embedded server', () => {
  let scratch: string;
  let server: ServerRun & { output: string };
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  const parents: { server: Server; origin: string }[] = [];
  let allowed: string;
  let allowedToo: string;
  let notAllowed: string;
  let envelopeId: string;
  let links: Record<string, { url: string; recipientId: string }>;

  /** A parent page at `origin`, with its messages gathered as they come. */
  async function openParent(origin: string) {
    const page = await context.newPage();
    const events = new Inbox<EsignEvent>();
    const raw = new Inbox<RawMessage>();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    await page.exposeBinding('__event', (_source, event: EsignEvent) => events.push(event));
    await page.exposeBinding('__raw', (_source, message: RawMessage) => raw.push(message));
    expect((await page.goto(`${origin}/app`))?.status()).toBe(200);
    return { page, events, raw, problems };
  }

  const signingFrame = (page: Page) => page.frameLocator('#signing iframe');

  /** The signer's part inside the frame: what the form asks, typed; the consent; Sign. Answers the post's request. */
  async function signInFrame(page: Page) {
    const frame = signingFrame(page);
    await frame.getByRole('heading', { level: 1, name: 'Mutual NDA' }).waitFor();
    for (const input of await frame.locator('input[data-field-input][type="text"]:visible').all()) await input.fill('Cleo Industries Ltd');
    await frame.locator('#input-consent').check();
    const [post] = await Promise.all([
      page.waitForRequest((request) => request.method() === 'POST' && request.url().startsWith(`${base}/sign/`)),
      frame.locator('[data-sign-form] button[type="submit"]').click(),
    ]);
    return post;
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'esign-embed-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(
      port,
      join(scratch, 'data'),
      (started) => ({ server, browser } = started as { server: typeof server; browser: typeof browser }),
    );
    for (let i = 0; i < 3; i++) parents.push(await serveParent(base));
    [allowed, allowedToo, notAllowed] = parents.map((parent) => parent.origin) as [string, string, string];
    // Third-party cookies blocked, as more and more browsers do by default: the page needs none.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
  });

  afterAll(async () => {
    await browser?.close();
    for (const parent of parents) parent.server.close();
    if (server) {
      server.kill();
      await server.ended;
    }
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('allows two parent origins through the admin API and sends the demo NDA', async () => {
    const adminToken = printed(server.output, 'Admin token')!;
    const companyId = printed(server.output, 'Company id')!;
    const allowedOrigins = [allowed, allowedToo, base.replace('127.0.0.1', 'localhost')];
    const put = await fetch(`${base}/admin/v1/companies/${companyId}/embedding`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ allowed_origins: allowedOrigins }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(((await put.json()) as { allowed_origins: string[] }).allowed_origins).toEqual(allowedOrigins);

    const exchanged = await fetch(`${base}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: printed(server.output, 'API key') }),
    });
    const bearer = ((await exchanged.json()) as { access_token: string }).access_token;
    const sent = await fetch(`${base}/v1/envelopes/from-template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ template_id: NDA, recipients: [CLIENT, WITNESS] }),
    });
    const answer = (await sent.json()) as { envelope_id: string; signing_urls: { email: string; recipient_id: string; signing_url: string }[] };
    expect(sent.status, JSON.stringify(answer)).toBe(201);
    envelopeId = answer.envelope_id;
    links = Object.fromEntries(answer.signing_urls.map((entry) => [entry.email, { url: entry.signing_url, recipientId: entry.recipient_id }]));
    expect(links[CLIENT.email]!.url.startsWith(`${base}/sign/`)).toBe(true);
  });

  it('the Client signs inside the allowed parent, which is told ready, viewed, ready, signed', async () => {
    const { page, events, raw, problems } = await openParent(allowed);
    const client = links[CLIENT.email]!;
    const framed = await page.evaluate((link) => (window as unknown as { mountLink: (link: string) => Promise<string> }).mountLink(link), client.url);
    expect(new URL(framed).searchParams.get('embed_origin')).toBe(allowed);
    await events.until('ready and viewed', (items) => items.length >= 2);
    // The document is drawn by pdf.js inside the frame, as on the page of its own.
    await signingFrame(page).locator('.page-sheet canvas.page-canvas').first().waitFor();

    const post = await signInFrame(page);
    const response = await post.response();
    // A post from the frame's own page is same-origin to it, though the frame sits in another site's page.
    expect((await post.allHeaders())['sec-fetch-site']).toBe('same-origin');
    expect(response?.status()).toBe(303);
    await events.until('signed', (items) => items.some((event) => event.type === 'signed'));
    await signingFrame(page)
      .getByRole('heading', { level: 1 })
      .filter({ hasText: /signed/i })
      .waitFor();

    const who = { envelope_id: envelopeId, recipient_id: client.recipientId };
    expect(events.items).toEqual(['ready', 'viewed', 'ready', 'signed'].map((type) => ({ type, ...who })));
    // Raw: every message came from the service, as esign:<event>, and none carries the link.
    const token = client.url.split('/sign/')[1]!;
    expect(raw.items.map((message) => message.origin)).toEqual(Array(4).fill(base));
    expect(raw.items.map((message) => (message.data as EsignEvent).type)).toEqual(['esign:ready', 'esign:viewed', 'esign:ready', 'esign:signed']);
    for (const message of raw.items) expect(JSON.stringify(message.data)).not.toContain(token.split('.')[1]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the Witness, the last signer, signs inside it too, and the parent is also told completed', async () => {
    const { page, events } = await openParent(allowed);
    const witness = links[WITNESS.email]!;
    await page.evaluate((link) => (window as unknown as { mountLink: (link: string) => Promise<string> }).mountLink(link), witness.url);
    await events.until('ready and viewed', (items) => items.length >= 2);
    expect((await (await signInFrame(page)).response())?.status()).toBe(303);
    await events.until('completed', (items) => items.some((event) => event.type === 'completed'));
    const who = { envelope_id: envelopeId, recipient_id: witness.recipientId };
    expect(events.items).toEqual(['ready', 'viewed', 'ready', 'signed', 'completed'].map((type) => ({ type, ...who })));
    await page.close();
  });

  it('a parent whose origin is not allowed gets a refused frame and no message', async () => {
    const { page, raw } = await openParent(notAllowed);
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    await page.evaluate((link) => (window as unknown as { mountLink: (link: string) => Promise<string> }).mountLink(link), links[CLIENT.email]!.url);
    // The frame's load event has come: its document is Chromium's error page, not the signing page.
    const child = page.frames().find((frame) => frame !== page.mainFrame())!;
    expect(child.url()).not.toContain('/sign/');
    expect(await child.evaluate(() => document.querySelector('meta[name="esign-embed"], .site-header') === null)).toBe(true);
    expect(refusals.join('\n')).toContain(`frame-ancestors ${allowed} ${allowedToo}`);
    expect(raw.items).toEqual([]);
    await page.close();
  });

  it('a parent other than the one the link names is told nothing, though its origin may frame the page', async () => {
    const { page, raw } = await openParent(allowed);
    // The link names the other allowed origin as its parent: the page is shown, and tells that one only.
    const url = new URL(links[CLIENT.email]!.url);
    url.searchParams.set('embed_origin', allowedToo);
    await page.evaluate((link) => (window as unknown as { frameRaw: (url: string) => Promise<boolean> }).frameRaw(link), url.href);
    const child = page.frames().find((frame) => frame !== page.mainFrame())!;
    await child.waitForFunction(() => document.readyState === 'complete' && document.querySelector('meta[name="esign-embed"]') !== null);
    // Messages from one window to another arrive in order: once this one is in, any earlier one would be.
    await child.evaluate(() => window.parent.postMessage('after the page', '*'));
    await raw.until('the marker message', (items) => items.some((message) => message.data === 'after the page'));
    expect(raw.items).toEqual([{ origin: base, data: 'after the page' }]);
    await page.close();
  });

  it('the example page at /dev/embed-example frames a link and lists its events', async () => {
    // Served by the service on its other name: a different origin from the BASE_URL's, and an allowed one.
    const example = `${base.replace('127.0.0.1', 'localhost')}/dev/embed-example?link=${encodeURIComponent(links[WITNESS.email]!.url)}`;
    const page = await context.newPage();
    expect((await page.goto(example))?.status()).toBe(200);
    await page.locator('#events li[data-event="completed"]').waitFor();
    expect(await page.locator('#events li').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.event))).toEqual([
      'ready',
      'signed',
      'completed',
    ]);
    await page.close();
  });
});
