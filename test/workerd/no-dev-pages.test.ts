/**
 * The deployed Worker has none of the development pages: `npm run dev` serves them from its own
 * front process beside the Worker (scripts/dev.ts), and `npm start` from the Node entry. The
 * webhook inbox opens every company's subscription secrets and shows what it received to anyone,
 * so a deployment must answer 404 at every `/dev` path, whatever the method.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

const BASE = 'https://esign.example.test';
const DEV_PATHS = ['/dev', '/dev/webhooks', '/dev/webhooks.json', '/dev/mailbox', '/dev/mailbox.json', '/dev/sms', '/dev/sms.json', '/dev/embed-example'];

describe('the deployed Worker', () => {
  it.each(DEV_PATHS)('answers GET %s with 404 not_found', async (path) => {
    const answer = await exports.default.fetch(new Request(`${BASE}${path}`));
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('takes no delivery at the webhook inbox: 404, nothing kept to show', async () => {
    const posted = await exports.default.fetch(
      new Request(`${BASE}/dev/webhooks/inbox/tour`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"type":"envelope.completed"}',
      }),
    );
    expect(posted.status).toBe(404);
    await posted.body?.cancel();
  });
});
