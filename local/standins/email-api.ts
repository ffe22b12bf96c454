import { Hono } from 'hono';
import { DevMailbox } from '../../src/adapters/embedded/dev-mailbox.js';
import { devMailboxRoutes } from '../../src/http/dev-mailbox.js';
import type { Standin } from './standin.js';

/**
 * A stand-in for the e-mail API the Worker sends to through QStash (Resend's format:
 * `POST /emails` with `{ from, to, subject, text, html }`). Nothing leaves the machine: the e-mails
 * land in a dev mailbox, shown at `/dev/mailbox` and `/dev/mailbox.json`.
 */
export function createEmailApiStandin(apiKey: string): Standin & { mailbox: DevMailbox } {
  const mailbox = new DevMailbox();
  const app = new Hono();
  app.post('/emails', async (c) => {
    if (c.req.header('authorization') !== `Bearer ${apiKey}`) return c.json({ message: 'API key is invalid' }, 401);
    const body = (await c.req.json().catch(() => null)) as { to?: unknown; subject?: unknown; text?: unknown; html?: unknown } | null;
    const to = Array.isArray(body?.to) ? body.to : [body?.to];
    if (typeof to[0] !== 'string' || typeof body?.subject !== 'string') return c.json({ message: 'to and subject are required' }, 422);
    for (const address of to as string[]) {
      // "Name <address>" or a bare address, as providers take them.
      const match = /^(.*?)\s*<([^>]+)>$/.exec(address);
      await mailbox.send({
        to: { name: match?.[1] ?? '', email: match?.[2] ?? address },
        subject: body.subject,
        text: typeof body.text === 'string' ? body.text : '',
        ...(typeof body.html === 'string' ? { html: body.html } : {}),
      });
    }
    return c.json({ id: crypto.randomUUID() });
  });
  app.route('/', devMailboxRoutes(mailbox));
  return { fetch: (request) => app.fetch(request), close: async () => {}, mailbox };
}
