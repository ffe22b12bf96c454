import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { DevMailbox } from '../adapters/embedded/dev-mailbox.js';

/**
 * The embedded server's mailbox: the e-mails that would have been sent, as a page at
 * `/dev/mailbox` and as JSON at `/dev/mailbox.json`. Only the Node entry mounts it.
 */
export function devMailboxRoutes(mailbox: DevMailbox) {
  const app = new Hono();
  app.get('/dev/mailbox.json', (c) => c.json({ data: mailbox.list() }));
  app.get('/dev/mailbox', (c) =>
    c.html(html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>Dev mailbox</title>
          <style>
            body { font: 15px/1.5 system-ui, sans-serif; max-width: 860px; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
            article { border: 1px solid #d8d8de; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
            h2 { font-size: 1.05rem; margin: 0 0 .25rem; }
            .meta { color: #5f6368; font-size: .85rem; }
            pre { white-space: pre-wrap; font: inherit; }
          </style>
        </head>
        <body>
          <h1>Dev mailbox</h1>
          <p class="meta">E-mails the embedded server would have sent, newest first. Nothing here left this machine.</p>
          ${mailbox.list().length === 0 ? html`<p>No e-mails yet.</p>` : ''}
          ${raw(
            mailbox
              .list()
              .map(
                (email) =>
                  html`<article>
                    <h2>${email.subject}</h2>
                    <div class="meta">To ${email.to.name} &lt;${email.to.email}&gt; · ${email.sent_at}</div>
                    <pre>${email.text}</pre>
                  </article>`,
              )
              .join(''),
          )}
        </body>
      </html>`),
  );
  return app;
}
