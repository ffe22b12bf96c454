/**
 * The company application's browser suites: the stacks it runs on here, a server and Chromium
 * per suite, the demo owner signing in from the dev mailbox's link, and what every page state is
 * held to (no serious or critical axe violation, a screenshot in test/artifacts/, and, where asked,
 * nothing wider than the screen).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { freePort, projectRoot, type ServerRun } from '../embedded/server-process.js';
import { startServerAndChromium } from './browser-session.js';
import { eventually } from './eventually.js';
import { seriousViolations } from './serious-violations.js';

export const ARTIFACTS = join(projectRoot, 'test', 'artifacts');

/** The stacks the application runs on here: the embedded server, and the Worker in workerd with the production adapters. */
export const APP_STACKS = [
  ['npm start', undefined],
  ['npm run dev', ['npm', 'run', '-s', 'dev']],
] as const;

export type AppStackCommand = (typeof APP_STACKS)[number][1];

/** A desktop, and a 390×844 phone. */
export const DEVICES = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

export type Device = (typeof DEVICES)[number][0];

type Mail = { to: { email: string }; text: string; tags?: Record<string, string> };

export type AppSession = {
  scratch: string;
  server: ServerRun & { output: string };
  browser: Browser;
  base: string;
  /** The demo owner named in the printed "Application" line. */
  owner: string;
};

/**
 * Starts a server (on `command`, or `npm start`) and Chromium before the suite and ends both after
 * it. The returned object is filled in by the suite's beforeAll.
 */
export function appSession(scratchPrefix: string, command?: AppStackCommand): AppSession {
  const session = {} as AppSession;
  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    session.scratch = await mkdtemp(join(tmpdir(), scratchPrefix));
    const port = await freePort();
    session.base = `http://127.0.0.1:${port}`;
    await startServerAndChromium(port, join(session.scratch, 'data'), (started) => Object.assign(session, started), command ? [...command] : undefined);
    session.owner = /^Application:\s+\S+\s+\(sign in as (\S+):/m.exec(session.server.output)![1]!;
  });
  afterAll(async () => {
    await session.browser?.close();
    // SIGTERM, not SIGKILL: `npm run dev` runs wrangler in a process group of its own and stops it
    // (and its workerd) on SIGTERM; killed outright, it would leave workerd running.
    if (session.server) await session.server.stop();
    if (session.scratch) await rm(session.scratch, { recursive: true, force: true });
  });
  return session;
}

/** A browser context sized as `device`, a phone with touch and its pixel density. */
export async function deviceContext(session: AppSession, device: Device, options: { permissions?: string[] } = {}): Promise<BrowserContext> {
  const viewport = DEVICES.find(([name]) => name === device)![1];
  const context = await session.browser.newContext({
    ...(device === 'phone' ? { viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport }),
    ...options,
  });
  context.setDefaultTimeout(20_000);
  return context;
}

/** What a page reported that a person would never want: console errors, script errors, refused content. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The sign-in links the dev mailbox holds for `email` (the demo owner unless named), newest first. */
export async function signInLinks(session: AppSession, email = session.owner): Promise<(string | undefined)[]> {
  const response = await fetch(`${session.base}/dev/mailbox.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Mail[] }).data
    .filter((mail) => mail.to.email === email && mail.tags?.kind === 'app_sign_in')
    .map((mail) => /https?:\/\/\S+\/app\/sign-in\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0]);
}

/** The link of the e-mail that arrived after `before` were there: it goes out after the page's answer. */
export async function newSignInLink(session: AppSession, before: number, email = session.owner): Promise<string> {
  return vi.waitFor(async () => {
    const links = await signInLinks(session, email);
    if (links.length <= before || !links[0]) throw new Error('no new sign-in e-mail yet');
    return links[0];
  }, eventually);
}

/** The demo owner signs in as a person does: asks for a link and opens it from the dev mailbox. */
export function signInAsOwner(session: AppSession, page: Page): Promise<void> {
  return signInAs(session, page, session.owner);
}

/** A user of one company (`email`, a user of the demo seed) signs in as the demo owner does, from the dev mailbox. */
export async function signInAs(session: AppSession, page: Page, email: string): Promise<void> {
  await page.goto(`${session.base}/app`);
  const before = (await signInLinks(session, email)).length;
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await page.goto(await newSignInLink(session, before, email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${session.base}/app`);
}

/** Saves the page, whole, as test/artifacts/`name`.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * What a suite holds each page state to: no serious or critical axe violation, then a screenshot
 * named `prefix`-shot; with `noOverflow`, also nothing running off the side of the screen (a wide
 * table stacks or scrolls inside its own box).
 */
export function pageCheck(prefix: string, { noOverflow = false } = {}) {
  return async (page: Page, shot: string): Promise<void> => {
    expect(await seriousViolations(page)).toEqual([]);
    if (noOverflow) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
    await screenshot(page, `${prefix}-${shot}`);
  };
}

/** The addresses a context asked for outside `base`'s origin (a page of the service fetches nothing elsewhere). */
export function requestsElsewhere(context: BrowserContext, base: string): string[] {
  const origin = new URL(base).origin;
  const elsewhere: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) elsewhere.push(request.url());
  });
  return elsewhere;
}
