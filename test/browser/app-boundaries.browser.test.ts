/**
 * The application's boundaries in a real browser, on `npm start` and on `npm run dev` (the Worker
 * in workerd): the demo seed's viewer signs in from the dev mailbox, has no API keys link, opens the
 * new key's page and gets the refusal (403), and a key's post forged from their own page with their
 * valid form token is refused too, nothing made; a page of another site (127.0.0.1 on another port,
 * which is the same site to the cookies, and localhost) posts the signed-in owner's forms with the
 * owner's valid form token, and gets the 403 page while the session goes on; and the demo owner
 * opening the other company's envelope, key, user and subscription gets the very page an unknown
 * id gets (404). On a desktop and on a 390×844 phone, no serious or critical axe violation and
 * nothing wider than the screen; screenshots in test/artifacts/. (A spent sign-in link's 410 is
 * app-sign-in.browser.test.ts's.)
 *
 * Skipped only when Chromium is not installed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_STACKS, appSession, DEVICES, deviceContext, pageCheck, signInAs, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';

explainSkipWithoutChromium("the application's boundaries");

/** The demo seed's two companies (seed/demo.json): Acme, whose owner signs in, and Globex. */
const ACME = '7b0c2a4e-5d1f-4c3b-9a8e-1f2d3c4b5a60';
const GLOBEX = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c60';
const GLOBEX_KEY = 'esk_test_globex_full_4Tr8Mn2Kx6Pw9Lc3Vb';
const GLOBEX_KEY_ID = 'key_globex_full';
const GLOBEX_TEMPLATE = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e50';
const VIEWER = 'vera@acme.test';

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

type Listed<T> = { data: T[] };

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the application's boundaries in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-boundaries-', command);
    const stackName = command ? 'dev' : 'start';
    const looked = pageCheck(`app-boundaries-${stackName}`, { noOverflow: true });
    let adminToken: string;
    /** Globex's records, made or read through its API key and the admin API. */
    const globex = { envelope: '', subscription: '', user: '' };
    const acmeUsers = new Map<string, string>();
    /** Another site: pages served on 127.0.0.1 at a port of their own, set by each test. */
    let site: Server;
    let sitePort: number;
    const sitePages = new Map<string, string>();

    const admin = async <T>(path: string): Promise<T> => {
      const response = await fetch(`${session.base}/admin/v1${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    const acmeKeyNames = async () => (await admin<Listed<{ name: string | null }>>(`/companies/${ACME}/api-keys?per_page=100`)).data.map((key) => key.name);

    beforeAll(async () => {
      const { base, server } = session;
      adminToken = printed(server.output, 'Admin token')!;
      const exchanged = await fetch(`${base}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: GLOBEX_KEY }),
      });
      expect(exchanged.status).toBe(200);
      const bearer = ((await exchanged.json()) as { access_token: string }).access_token;
      const asGlobex = async (path: string, body: unknown) => {
        const response = await fetch(`${base}/v1${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as Record<string, string>;
        expect(response.status, JSON.stringify(answer)).toBe(201);
        return answer;
      };
      // Globex's plan allows two sends a period: one envelope serves every device.
      globex.envelope = (
        await asGlobex('/envelopes/from-template', {
          template_id: GLOBEX_TEMPLATE,
          recipients: [{ role: 'Customer', name: 'Cora Customer', email: `cora-${stackName}@example.com` }],
        })
      ).envelope_id!;
      globex.subscription = (await asGlobex('/webhooks', { url: 'http://127.0.0.1:9/hooks/globex', events: ['envelope.completed'] })).id!;
      const globexUsers = await admin<Listed<{ id: string; email: string }>>(`/companies/${GLOBEX}/users`);
      globex.user = globexUsers.data.find((user) => user.email === 'gail@globex.test')!.id;
      for (const user of (await admin<Listed<{ id: string; email: string }>>(`/companies/${ACME}/users?per_page=100`)).data) acmeUsers.set(user.email, user.id);

      site = createServer((req, res) => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(sitePages.get(req.url ?? '') ?? '<!doctype html><title>Nothing</title>');
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      sitePort = (site.address() as AddressInfo).port;
    });
    afterAll(async () => {
      site?.closeAllConnections();
      if (site) await new Promise((resolve) => site.close(resolve));
    });

    /** Clicks the page's one button, a form's post, and answers the response the browser got for `action`. */
    async function post(page: Page, action: string) {
      const answered = page.waitForResponse((response) => response.url() === action && response.request().method() === 'POST');
      await page.locator('form button').click();
      const response = await answered;
      await page.waitForLoadState();
      return response;
    }

    /** A page of another site with one form posting `fields` to `action`, as a forger would make it. */
    function forgedForm(path: string, action: string, fields: Record<string, string>): string {
      const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`);
      sitePages.set(
        path,
        `<!doctype html><html lang="en"><title>Another site</title><form method="post" action="${action}">${inputs.join('')}<button>Win a prize</button></form></html>`,
      );
      return path;
    }

    for (const [device] of DEVICES) {
      it(`a viewer cannot make a key, another site cannot post, and another company's ids are unknown (${device})`, async () => {
        const { base, owner } = session;
        const keysBefore = await acmeKeyNames();

        // 1. The viewer: no API keys link, the refusal on the page and on a post forged from their own page.
        const viewerContext = await deviceContext(session, device);
        const viewer = await viewerContext.newPage();
        const viewerErrors = watchErrors(viewer);
        await signInAs(session, viewer, VIEWER);
        await viewer.getByRole('heading', { name: 'Overview' }).waitFor();
        await expect(viewer.getByRole('navigation', { name: 'Main' }).locator('a[href="/app/keys"]').count()).resolves.toBe(0);
        expect(viewerErrors).toEqual([]);
        const refused = await viewer.goto(`${base}/app/keys/new`);
        expect(refused?.status()).toBe(403);
        await viewer.getByRole('heading', { level: 1, name: 'Only owners and administrators manage API keys' }).waitFor();
        await looked(viewer, `${device}-1-viewer-new-key-refused`);

        const viewerKey = `Viewer's key ${device}`;
        const answered = viewer.waitForResponse((response) => response.url() === `${base}/app/keys` && response.request().method() === 'POST');
        await viewer.evaluate(
          ({ name, owner }) => {
            const form = document.createElement('form');
            form.method = 'post';
            form.action = '/app/keys';
            const token = document.querySelector<HTMLInputElement>('input[name="form_token"]')!.value;
            for (const [field, value] of [
              ['form_token', token],
              ['name', name],
              ['scope', 'templates:read'],
              ['scope', 'envelopes:send'],
              ['owner', owner],
            ] as const) {
              const input = document.createElement('input');
              input.type = 'hidden';
              input.name = field;
              input.value = value;
              form.append(input);
            }
            document.body.append(form);
            form.submit();
          },
          { name: viewerKey, owner: acmeUsers.get(VIEWER)! },
        );
        expect((await answered).status()).toBe(403);
        await viewer.getByRole('heading', { level: 1, name: 'Only owners and administrators manage API keys' }).waitFor();
        await looked(viewer, `${device}-2-viewer-forged-post-refused`);
        expect(await acmeKeyNames()).toEqual(keysBefore);
        await viewerContext.close();

        // 2. Another site posts the signed-in owner's forms, with the owner's own form token: refused, nothing done.
        const ownerContext = await deviceContext(session, device);
        const page = await ownerContext.newPage();
        const errors = watchErrors(page);
        await signInAsOwner(session, page);
        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        const formToken = await page.locator('input[name="form_token"]').first().inputValue();
        expect(errors).toEqual([]);

        // 127.0.0.1 on another port is another origin but the same site: the browser sends the Lax cookie.
        await page.goto(`http://127.0.0.1:${sitePort}${forgedForm(`/sign-out-${device}`, `${base}/app/sign-out`, { form_token: formToken })}`);
        const signOut = await post(page, `${base}/app/sign-out`);
        expect(signOut.status()).toBe(403);
        expect((await signOut.request().allHeaders()).cookie).toMatch(/(^|; )esign_session=/);
        await page.getByRole('heading', { level: 1, name: 'This form cannot be sent' }).waitFor();
        await looked(page, `${device}-3-other-origin-sign-out-refused`);
        await page.goto(`${base}/app`);
        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        await expect(page.locator('header').textContent()).resolves.toContain('Olivia Owner');

        const crossSiteKey = `Cross-site key ${device}`;
        const keyForm = forgedForm(`/keys-${device}`, `${base}/app/keys`, {
          form_token: formToken,
          name: crossSiteKey,
          scope: 'templates:read',
          owner: acmeUsers.get(owner)!,
        });
        // localhost is another site: the browser keeps the Lax cookie back, and the post is refused all the same.
        await page.goto(`http://localhost:${sitePort}${keyForm}`);
        expect((await post(page, `${base}/app/keys`)).status()).toBe(403);
        await page.getByRole('heading', { level: 1, name: 'This form cannot be sent' }).waitFor();
        expect(await acmeKeyNames()).toEqual(keysBefore);
        await page.goto(`${base}/app/keys`);
        await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
        await expect(page.locator('main').textContent()).resolves.not.toContain(crossSiteKey);

        // 3. Globex's envelope, key, user and subscription answer the very page an unknown id answers.
        const unknown = crypto.randomUUID();
        const pairs = [
          [`/app/envelopes/${globex.envelope}`, `/app/envelopes/${unknown}`],
          [`/app/keys/${GLOBEX_KEY_ID}/rotate`, `/app/keys/key_unknown_${unknown.slice(0, 8)}/rotate`],
          [`/app/users/${globex.user}`, `/app/users/${unknown}`],
          [`/app/webhooks/${globex.subscription}`, `/app/webhooks/${unknown}`],
        ];
        for (const [theirs, nobodys] of pairs) {
          const other = await page.goto(`${base}${theirs}`);
          const otherPage = { status: other?.status(), body: await other?.text() };
          const missing = await page.goto(`${base}${nobodys}`);
          expect(otherPage, theirs).toEqual({ status: 404, body: await missing?.text() });
        }
        await page.goto(`${base}/app/envelopes/${globex.envelope}`);
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        await looked(page, `${device}-4-other-company-not-found`);
        await page.goto(`${base}/app`);
        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        await ownerContext.close();
      }, 180_000);
    }
  });
}
