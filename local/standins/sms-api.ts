import { Hono } from 'hono';
import { DevSmsBox } from '../../src/adapters/embedded/dev-sms-box.js';
import { devSmsRoutes } from '../../src/dev-pages/sms-page.js';
import type { Standin } from './standin.js';

/**
 * A stand-in for Twilio's Messages API, for `npm run dev`: `POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To`, `Body` and `From` or
 * `MessagingServiceSid`, under basic auth with the account SID and auth token. Nothing leaves the
 * machine: the messages land in a dev SMS box, shown at `/dev/sms` and `/dev/sms.json`. It refuses
 * as Twilio does: 401 (code 20003) for other credentials, 400 (21211) for a `To` not in E.164,
 * 400 (21604 / 21602) without a sender or a body.
 */
export function createSmsApiStandin(account: { accountSid: string; authToken: string }): Standin & { box: DevSmsBox } {
  const box = new DevSmsBox();
  const app = new Hono();
  const refuse = (status: 400 | 401, code: number, message: string) => Response.json({ code, message, status }, { status });
  app.post('/2010-04-01/Accounts/:sid/Messages.json', async (c) => {
    const expected = `Basic ${btoa(`${account.accountSid}:${account.authToken}`)}`;
    if (c.req.param('sid') !== account.accountSid || c.req.header('authorization') !== expected) return refuse(401, 20003, 'Authenticate');
    const form = new URLSearchParams(await c.req.text());
    const to = form.get('To') ?? '';
    const body = form.get('Body') ?? '';
    if (!/^\+[1-9]\d{7,14}$/.test(to)) return refuse(400, 21211, "The 'To' number is not a valid phone number.");
    if (!form.get('From') && !form.get('MessagingServiceSid')) return refuse(400, 21604, "A 'From' phone number is required.");
    if (body === '') return refuse(400, 21602, 'Message body is required.');
    await box.send({ to, body });
    const sid = `SM${crypto.randomUUID().replaceAll('-', '')}`;
    return c.json({ sid, account_sid: account.accountSid, to, from: form.get('From'), status: 'queued' }, 201);
  });
  app.route('/dev', devSmsRoutes(box));
  return { fetch: (request) => app.fetch(request), close: async () => {}, box };
}
