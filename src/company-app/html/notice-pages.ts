/** The application's refusals and failures: each a page, never the API's JSON. */
import { html } from 'hono/html';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type Html, noticePage } from './layout.js';

export const forbiddenPage = (m: AppMessages): Html =>
  noticePage({ m, title: m.text('forbidden.title'), lead: m.text('forbidden.lead'), body: html`<p>${m.text('forbidden.body')}</p>`, tone: 'warning' });

export const notFoundPage = (m: AppMessages): Html =>
  noticePage({
    m,
    title: m.text('notFound.title'),
    lead: m.text('notFound.lead'),
    body: html`<p><a href="/app">${m.text('notFound.home')}</a></p>`,
    tone: 'warning',
  });

export const methodNotAllowedPage = (m: AppMessages): Html =>
  noticePage({ m, title: m.text('notAllowed.title'), lead: m.text('notAllowed.lead'), tone: 'warning' });

export const tooLargePage = (m: AppMessages): Html => noticePage({ m, title: m.text('tooLarge.title'), lead: m.text('tooLarge.lead'), tone: 'warning' });

export const errorPage = (m: AppMessages, retryable: boolean): Html =>
  noticePage({ m, title: m.text('error.title'), lead: m.text(retryable ? 'error.retry' : 'error.later'), tone: 'warning' });
