/**
 * The application's webhooks in a real browser, on the embedded server started as `npm start`
 * starts it and on `npm run dev` (the Worker in workerd, which may post to the loopback address as
 * scripts/dev.ts sets ALLOW_PRIVATE_WEBHOOK_TARGETS): the demo owner adds a subscription pointing
 * at a receiver this test runs on 127.0.0.1, copies its secret with the page's button, sends a test
 * event that the receiver refuses (500) and sees the receiver's answer among the deliveries; the
 * receiver then answers 200, the owner redelivers, and the page shows the redelivery delivered,
 * signed with the secret the page showed; then rotates the secret. On a desktop and on a 390×844 phone, no serious or
 * critical axe violation and nothing wider than the screen; screenshots in test/artifacts/.
 *
 * Skipped only when Chromium is not installed.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_STACKS, appSession, DEVICES, deviceContext, pageCheck, signInAsOwner, watchErrors } from '../support/app-browser.js';
import { chromiumMissing, explainSkipWithoutChromium } from '../support/browser-session.js';
import { eventually } from '../support/eventually.js';

explainSkipWithoutChromium("the application's webhooks");

type Received = { path: string; headers: IncomingHttpHeaders; body: string; answered: number };

for (const [stack, command] of APP_STACKS) {
  describe.skipIf(chromiumMissing !== null)(`the application's webhooks in Chromium, on ${stack}`, () => {
    const session = appSession('esign-app-webhooks-', command);
    const stackName = command ? 'dev' : 'start';
    const looked = pageCheck(`app-webhooks-${stackName}`, { noOverflow: true });
    let receiver: Server;
    let receiverUrl: string;
    /** What the receiver answers now, per path. */
    const answering = new Map<string, number>();
    const received: Received[] = [];

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const path = req.url ?? '';
          const answered = answering.get(path) ?? 200;
          received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
          res.statusCode = answered;
          res.end(answered === 200 ? 'ok' : 'down for maintenance');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      receiver?.closeAllConnections();
      if (receiver) await new Promise((resolve) => receiver.close(resolve));
    });

    for (const [device] of DEVICES) {
      it(`the demo owner adds a subscription, sees a refused test delivery, redelivers it once the receiver is back, and rotates the secret (${device})`, async () => {
        const context = await deviceContext(session, device, { permissions: ['clipboard-read', 'clipboard-write'] });
        const page = await context.newPage();
        const errors = watchErrors(page);
        await signInAsOwner(session, page);

        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
        await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
        await looked(page, `${device}-1-list`);

        const path = `/hooks/${stackName}-${device}`;
        const url = `${receiverUrl}${path}`;
        await page.getByRole('link', { name: 'Add a subscription' }).click();
        await page.getByLabel('Endpoint URL').fill(url);
        await page.getByLabel('envelope.sent').check();
        await page.getByLabel('envelope.completed').check();
        await page.getByLabel('Description (optional)').fill(`Browser ${device}`);
        await looked(page, `${device}-2-new`);
        await page.getByRole('button', { name: 'Add the subscription' }).click();
        await page.getByRole('heading', { name: 'Your new webhook subscription' }).waitFor();

        const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
        expect(secret).toMatch(/^whsec_/);
        await page.getByRole('button', { name: 'Copy the secret' }).click();
        await page.getByText('Copied.').waitFor();
        await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
        await looked(page, `${device}-3-secret`);

        // The receiver is down: the test event's result and the deliveries show what it answered.
        answering.set(path, 500);
        await page.getByRole('link', { name: 'Go to the subscription' }).click();
        await page.getByRole('heading', { level: 1, name: url }).waitFor();
        await expect(page.content()).resolves.not.toContain(secret);
        await page.getByRole('button', { name: 'Send a test event' }).click();
        await page.getByRole('alert').filter({ hasText: 'The test event was not delivered: HTTP 500' }).waitFor();
        const attempts = page.getByRole('table').getByRole('row');
        await expect(attempts.filter({ hasText: 'webhook.test' }).first().textContent()).resolves.toMatch(/Failed[\s\S]*HTTP 500[\s\S]*Answered 500\./);
        await looked(page, `${device}-4-test-refused`);

        // Back up: the redelivery goes through the queue; the page shows it delivered after a reload.
        answering.set(path, 200);
        await page.getByRole('button', { name: 'Redeliver webhook.test, attempt 1' }).click();
        await page.getByRole('status').filter({ hasText: 'The event is queued for delivery again.' }).waitFor();
        await vi.waitFor(async () => {
          await page.reload();
          const redelivery = attempts.filter({ hasText: 'Redelivery' });
          expect(await redelivery.count()).toBe(1);
          expect(await redelivery.textContent()).toMatch(/Delivered[\s\S]*HTTP 200/);
        }, eventually);
        await looked(page, `${device}-5-redelivered`);

        // Both posts reached the receiver under one webhook-id, the second signed with the secret the page showed.
        const posts = received.filter((post) => post.path === path);
        expect(posts.map((post) => post.answered)).toEqual([500, 200]);
        expect(posts[1]!.headers['webhook-id']).toBe(posts[0]!.headers['webhook-id']);
        const signed = new Webhook(secret).verify(posts[1]!.body, {
          'webhook-id': String(posts[1]!.headers['webhook-id']),
          'webhook-timestamp': String(posts[1]!.headers['webhook-timestamp']),
          'webhook-signature': String(posts[1]!.headers['webhook-signature']),
        }) as { type: string };
        expect(signed.type).toBe('webhook.test');
        // Rotating shows the new secret once, and until when the replaced one still signs.
        await page.getByRole('link', { name: 'Rotate the secret' }).click();
        await page.getByRole('heading', { name: 'Rotate the signing secret?' }).waitFor();
        await looked(page, `${device}-6-confirm-rotate`);
        await page.getByRole('button', { name: 'Rotate the secret' }).click();
        await page.getByRole('heading', { name: 'The new signing secret' }).waitFor();
        const rotated = await page.getByLabel('Signing secret', { exact: true }).inputValue();
        expect(rotated).toMatch(/^whsec_/);
        expect(rotated).not.toBe(secret);
        await page.getByText(/^Until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, each delivery is signed with the previous secret too/).waitFor();
        await looked(page, `${device}-7-rotated`);

        await page.getByRole('link', { name: 'Go to the subscription' }).click();
        await page.getByRole('link', { name: 'All webhook subscriptions' }).click();
        await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
        await expect(page.getByRole('row').filter({ hasText: url }).textContent()).resolves.toMatch(/envelope\.sent[\s\S]*Active/);
        await looked(page, `${device}-8-list`);

        // The test's refused page is a 200 with its answer in it: the console stays clean.
        expect(errors).toEqual([]);
        await context.close();
      }, 180_000);
    }
  });
}
