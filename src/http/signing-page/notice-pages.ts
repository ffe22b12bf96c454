/**
 * The answers that are not about an envelope: an invalid link (one page whatever made it
 * invalid), and the refusals of a request. None of them shows anything of the envelope.
 */
import { html } from 'hono/html';
import { type Html, noticePage } from './layout.js';

export const invalidLinkPage = (): Html =>
  noticePage({
    title: 'This link is not valid',
    lead: 'The signing link you followed does not work.',
    body: html`<p>Make sure you opened the whole link from your e-mail; some e-mail programs break long links across lines. If it still does not work, ask the person who sent you the document for a new link.</p>`,
    tone: 'warning',
  });

export const forbiddenPage = (): Html =>
  noticePage({
    title: 'The form could not be accepted',
    lead: 'For your protection, this form is only accepted when it is sent from its own signing page.',
    body: html`<p>Open the signing link from your e-mail again, reload the page, and send the form from there. Nothing was signed or declined.</p>`,
    tone: 'warning',
  });

export function tooManyRequestsPage(retryAfterSeconds: number): Html {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return noticePage({
    title: 'Too many attempts',
    lead: `This signing link was used too many times in a short while. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    tone: 'warning',
  });
}

export const tooLargePage = (): Html =>
  noticePage({
    title: 'The form is too large',
    lead: 'What you sent is larger than this page accepts.',
    body: html`<p>Go back, clear the drawn signature and draw it again, or type it instead. Nothing was signed.</p>`,
    tone: 'warning',
  });

export const methodNotAllowedPage = (): Html =>
  noticePage({ title: 'This page cannot do that', lead: 'Open the signing link from your e-mail to see the document.', tone: 'warning' });

export const unreadableFormPage = (): Html =>
  noticePage({
    title: 'The form could not be read',
    lead: 'What was sent is not a form this page accepts.',
    body: html`<p>Open the signing link from your e-mail again and send the form from there. Nothing was signed or declined.</p>`,
    tone: 'warning',
  });

export function errorPage(retryable: boolean): Html {
  return noticePage({
    title: 'Something went wrong',
    lead: retryable ? 'We could not do this just now. Please try again in a moment.' : 'Something went wrong on our side. Please try again later.',
    body: html`<p>If this goes on, contact the person who sent you the document.</p>`,
    tone: 'warning',
  });
}
