/**
 * The frame of every page under `/sign/`. Pages are built with `hono/html`, which escapes every
 * value put into them: titles, messages and names come from senders and recipients, never trusted.
 * No inline script or style anywhere: the content policy allows neither.
 */
import { html } from 'hono/html';

export type Html = ReturnType<typeof html>;

export function layout(options: { title: string; main: Html; withScript?: boolean }): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${options.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/sign.css">
${options.withScript ? html`<script type="module" src="/static/sign.js"></script>` : ''}
</head>
<body>
<a class="skip-link" href="#main">Skip to the content</a>
<header class="site-header">
<p class="brand"><span class="brand-mark" aria-hidden="true"></span>E-signature</p>
</header>
<main id="main" tabindex="-1">
${options.main}
</main>
<footer class="site-footer">
<p>This page's address is personal to you: anyone who has it can act in your name, so do not share or forward it.</p>
</footer>
</body>
</html>`;
}

/** A page of one short message: the states with nothing to fill in, and the refusals. */
export function noticePage(options: { title: string; heading?: string; lead: Html | string; body?: Html; tone?: 'info' | 'success' | 'warning' }): Html {
  return layout({
    title: options.title,
    main: html`<section class="notice notice-${options.tone ?? 'info'}" aria-labelledby="notice-title">
<h1 id="notice-title">${options.heading ?? options.title}</h1>
<p class="lead">${options.lead}</p>
${options.body ?? ''}
</section>`,
  });
}

// Made on first use: building a formatter loads locale data (milliseconds), which the API's own
// requests never need, so it stays off the start-up of an isolate.
let formats: { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat } | undefined;
const dateFormats = () =>
  (formats ??= {
    date: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    time: new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' }),
  });

/** A date as people read it, in UTC (the service does not know the signer's time zone). */
export function dateText(at: Date, withTime = false): Html {
  const { date, time } = dateFormats();
  const text = withTime ? `${date.format(at)}, ${time.format(at)} UTC` : date.format(at);
  return html`<time datetime="${at.toISOString()}">${text}</time>`;
}
