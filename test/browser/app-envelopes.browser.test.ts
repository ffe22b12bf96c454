/**
 * The company application's envelopes in a real browser, on the embedded server started as
 * `npm start` starts it and on `npm run dev` (the Worker in workerd): the demo owner signs in from
 * the dev mailbox; an envelope sent through the API with the printed key shows in the list; as its
 * signers sign through the signing page, its page shows their states change; the finished PDF
 * downloads from the page and, where poppler's pdfsig is installed, its seal verifies. Another
 * envelope is voided from its page with a typed reason, and its signing link then shows the
 * cancelled page. On a desktop and on a 390×844 phone, no serious or critical axe violation on the
 * list or an envelope's page, and nothing wider than the phone's screen; screenshots in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_STACKS, appSession, DEVICES, deviceContext, pageCheck, screenshot, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';
import { eventually } from '../support/eventually.js';
import { installed } from '../support/outside-tools.js';
import { signingBrowser } from '../support/signing-browser.js';

const run = promisify(execFile);
/** The demo seed's mutual NDA, as the README's tour sends it. */
const NDA = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const withPdfsig = installed('pdfsig');

explainSkipWithoutChromium("the company application's envelopes");

const printed = (output: string, label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(output)?.[1];

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the application's envelopes in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-envelopes-', command);
    let bearer: string;
    const signer = signingBrowser(() => session.base);
    const stackName = command ? 'dev' : 'start';
    // Nothing runs off the side of the screen: a wide table stacks or scrolls inside its own box.
    const looked = pageCheck(`app-envelopes-${stackName}`, { noOverflow: true });

    /** The demo NDA sent through the API, as the README's tour sends it: its id and each signer's token. */
    async function sendNda(tag: string) {
      const recipients = [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.com` },
        { role: 'Witness', name: 'Will Witness', email: `will-${tag}@example.com` },
      ];
      const sent = await fetch(`${session.base}/v1/envelopes/from-template`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ template_id: NDA, recipients }),
      });
      const answer = (await sent.json()) as { envelope_id: string; signing_urls: { signing_url: string | null }[] };
      expect(sent.status, JSON.stringify(answer)).toBe(201);
      const tokens = answer.signing_urls.flatMap((each) => (each.signing_url ? [each.signing_url.split('/sign/')[1]!] : []));
      expect(tokens).toHaveLength(2);
      return { id: answer.envelope_id, tokens };
    }

    /** The recipients table's row of one person, as the page shows it after a reload. */
    async function rowText(page: Page, name: string) {
      return (await page.getByRole('row').filter({ hasText: name }).textContent()) ?? '';
    }

    /** Reloads the page until `seen` holds: the signing's effects land after its answer. */
    async function reloadUntil(page: Page, seen: () => Promise<void>) {
      await vi.waitFor(async () => {
        await page.reload();
        await seen();
      }, eventually);
    }

    beforeAll(async () => {
      const { base, server } = session;
      const exchanged = await fetch(`${base}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: printed(server.output, 'API key') }),
      });
      expect(exchanged.status).toBe(200);
      bearer = ((await exchanged.json()) as { access_token: string }).access_token;
    });

    for (const [device] of DEVICES) {
      it(`the demo owner follows an envelope from sent to signed, downloads its PDF and voids another (${device})`, async () => {
        const { base, scratch } = session;
        const context = await deviceContext(session, device);
        const page = await context.newPage();
        const errors = watchErrors(page);
        await signInAsOwner(session, page);

        const followed = await sendNda(`${stackName}-${device}-a`);
        const voided = await sendNda(`${stackName}-${device}-b`);

        await page.getByRole('navigation').getByRole('link', { name: 'Envelopes' }).click();
        await page.getByRole('heading', { level: 1, name: 'Envelopes' }).waitFor();
        const listed = page.locator(`a[href="/app/envelopes/${followed.id}"]`);
        await expect(listed.textContent()).resolves.toBe('Mutual NDA');
        await looked(page, `${device}-1-list`);

        await listed.click();
        await page.getByRole('heading', { level: 1, name: 'Mutual NDA' }).waitFor();
        await expect(rowText(page, 'Cleo Client')).resolves.toContain('Their turn to sign');
        await expect(rowText(page, 'Will Witness')).resolves.toContain('Waiting for their turn');
        await looked(page, `${device}-2-envelope-sent`);

        // The signers sign through the signing page; the owner's page shows each step after a reload.
        expect((await signer.signThroughPage(followed.tokens[0]!, 'Cleo Client')).status).toBe(200);
        await reloadUntil(page, async () => {
          expect(await rowText(page, 'Cleo Client')).toContain('Signed');
          expect(await rowText(page, 'Will Witness')).toContain('Their turn to sign');
        });
        await looked(page, `${device}-3-envelope-half-signed`);

        expect((await signer.signThroughPage(followed.tokens[1]!, 'Will Witness')).status).toBe(200);
        const download = page.getByRole('link', { name: 'Download the finished PDF' });
        await reloadUntil(page, async () => {
          expect(await download.count()).toBe(1);
        });
        await expect(page.locator('dl').textContent()).resolves.toContain('Completed');
        await expect(rowText(page, 'Will Witness')).resolves.toContain('Signed');
        await looked(page, `${device}-4-envelope-completed`);

        const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
        const saved = join(scratch, `${stackName}-${device}.pdf`);
        await file.saveAs(saved);
        expect((await readFile(saved)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
        if (withPdfsig) {
          const report = await run('pdfsig', [saved]).then(
            ({ stdout }) => stdout,
            (err: { stdout: string }) => err.stdout,
          );
          expect(report).toContain('Signature Validation: Signature is Valid.');
          expect(report).toContain('Total document signed');
        }

        // Void the other envelope from its page, with a typed reason.
        await page.goto(`${base}/app/envelopes/${voided.id}`);
        await page.getByRole('heading', { level: 1, name: 'Mutual NDA' }).waitFor();
        await page.getByLabel('Reason').fill('Sent to the wrong client');
        await page.getByRole('button', { name: 'Void the envelope' }).click();
        await page.getByRole('status').filter({ hasText: 'The envelope is voided.' }).waitFor();
        await expect(page.locator('.timeline').textContent()).resolves.toContain('Sent to the wrong client');
        await expect(page.getByRole('button', { name: 'Void the envelope' }).count()).resolves.toBe(0);
        await looked(page, `${device}-5-envelope-voided`);
        expect(errors).toEqual([]);

        // The signer's link now shows the cancelled page (a 4xx, which the console reports).
        await page.goto(`${base}/sign/${voided.tokens[0]}`);
        await page.getByRole('heading', { name: 'This document was cancelled' }).waitFor();
        await screenshot(page, `app-envelopes-${stackName}-${device}-6-link-cancelled`);
        await context.close();
      }, 180_000);
    }
  });
}
