/**
 * The answers that are not about an envelope: an invalid link (one page whatever made it
 * invalid), and the refusals of a request. None of them shows anything of the envelope. Each is in
 * the language of the request (`m`), as far as it can be told without the envelope.
 */
import { html } from 'hono/html';
import type { Messages } from '../../i18n/index.js';
import { type Html, type LanguageLinks, noticePage } from './layout.js';

export const invalidLinkPage = (m: Messages, languageLinks?: LanguageLinks): Html =>
  noticePage({
    m,
    languageLinks,
    title: m.text('invalid.title'),
    lead: m.text('invalid.lead'),
    body: html`<p>${m.text('invalid.body')}</p>`,
    tone: 'warning',
  });

export const forbiddenPage = (m: Messages): Html =>
  noticePage({ m, title: m.text('forbidden.title'), lead: m.text('forbidden.lead'), body: html`<p>${m.text('forbidden.body')}</p>`, tone: 'warning' });

export function tooManyRequestsPage(m: Messages, retryAfterSeconds: number): Html {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return noticePage({ m, title: m.text('tooMany.title'), lead: m.text('tooMany.lead', { minutes }), tone: 'warning' });
}

export const tooLargePage = (m: Messages): Html =>
  noticePage({ m, title: m.text('tooLarge.title'), lead: m.text('tooLarge.lead'), body: html`<p>${m.text('tooLarge.body')}</p>`, tone: 'warning' });

export const methodNotAllowedPage = (m: Messages): Html =>
  noticePage({ m, title: m.text('notAllowed.title'), lead: m.text('notAllowed.lead'), tone: 'warning' });

export const unreadableFormPage = (m: Messages): Html =>
  noticePage({ m, title: m.text('unreadable.title'), lead: m.text('unreadable.lead'), body: html`<p>${m.text('unreadable.body')}</p>`, tone: 'warning' });

export function errorPage(m: Messages, retryable: boolean): Html {
  return noticePage({
    m,
    title: m.text('error.title'),
    lead: m.text(retryable ? 'error.retry' : 'error.later'),
    body: html`<p>${m.text('error.body')}</p>`,
    tone: 'warning',
  });
}
