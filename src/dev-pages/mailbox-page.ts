import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { DevMailbox } from '../adapters/embedded/dev-mailbox.js';

/**
 * An e-mail's HTML shown on its own: as a mail client would, with its images and inline styles,
 * and nothing in it run (a sandbox, no script).
 */
const EMAIL_HTML_CSP = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; sandbox";

/**
 * The embedded server's mailbox: the e-mails that would have been sent, as a page at
 * `/dev/mailbox` (each as its reader would see it, in a sandboxed frame, with its plain-text
 * alternative), one e-mail's HTML at `/dev/mailbox/{id}.html`, and all as JSON at
 * `/dev/mailbox.json`, its paths written relative to `/dev`, where the Node entry's development
 * pages and the e-mail API stand-in mount it.
 */
export function devMailboxRoutes(mailbox: DevMailbox) {
  const app = new Hono();
  app.get('/mailbox.json', (c) => c.json({ data: mailbox.list() }));
  app.get('/mailbox/:file{[0-9a-f-]+\\.html}', (c) => {
    const email = mailbox.list().find((mail) => `${mail.id}.html` === c.req.param('file'));
    if (!email?.html) return c.text('No such e-mail.', 404);
    return c.html(email.html, 200, { 'Content-Security-Policy': EMAIL_HTML_CSP, 'X-Content-Type-Options': 'nosniff' });
  });
  app.get('/mailbox', (c) =>
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
            iframe { width: 100%; height: 560px; border: 1px solid #d8d8de; border-radius: 6px; margin-top: .5rem; }
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
                    <div class="meta">
                      ${email.from ? html`From ${email.from.name} · ` : ''}To ${email.to.name} &lt;${email.to.email}&gt; · ${email.sent_at}
                      ${email.html ? html` · <a href="/dev/mailbox/${email.id}.html" target="_blank" rel="noopener">open the HTML alone</a>` : ''}
                    </div>
                    ${
                      email.html
                        ? html`<iframe sandbox title="${email.subject}" srcdoc="${email.html}"></iframe>
                          <details><summary>Plain-text alternative</summary><pre>${email.text}</pre></details>`
                        : html`<pre>${email.text}</pre>`
                    }
                  </article>`,
              )
              .join(''),
          )}
        </body>
      </html>`),
  );
  return app;
}
