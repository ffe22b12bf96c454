import { Hono } from 'hono';
import { html } from 'hono/html';
import type { DevSmsBox } from '../adapters/embedded/dev-sms-box.js';

/**
 * The embedded server's text messages: those that would have been sent, as a page at `/dev/sms`
 * and as JSON at `/dev/sms.json`, beside the dev mailbox; its paths are relative to `/dev`, where
 * the Node entry's development pages and the SMS stand-in mount it.
 */
export function devSmsRoutes(box: DevSmsBox) {
  const app = new Hono();
  app.get('/sms.json', (c) => c.json({ data: box.list() }));
  app.get('/sms', (c) =>
    c.html(html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>Dev text messages</title>
          <style>
            body { font: 15px/1.5 system-ui, sans-serif; max-width: 860px; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
            article { border: 1px solid #d8d8de; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
            .meta { color: #5f6368; font-size: .85rem; }
            p.body { white-space: pre-wrap; margin: .25rem 0 0; }
          </style>
        </head>
        <body>
          <h1>Dev text messages</h1>
          <p class="meta">Text messages the embedded server would have sent, newest first. Nothing here left this machine. E-mails are at <a href="/dev/mailbox">/dev/mailbox</a>.</p>
          ${box.list().length === 0 ? html`<p>No text messages yet.</p>` : ''}
          ${box.list().map(
            (message) => html`<article>
              <div class="meta">To ${message.to} · ${message.sent_at}</div>
              <p class="body">${message.body}</p>
            </article>`,
          )}
        </body>
      </html>`),
  );
  return app;
}
