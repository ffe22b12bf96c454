/**
 * How the pages of a link name who sent it: as the certificate of completion does, the name the
 * company's brand shows, then the sender's address. Each value is isolated in <bdi>, in every
 * language: a right-to-left name in a left-to-right sentence (or the reverse) keeps its own
 * direction and does not carry the words and brackets around it along.
 */
import { html } from 'hono/html';
import type { SigningEnvelope } from '../../domain/signing/signing-state.js';
import type { Messages } from '../../i18n/index.js';
import type { PageBrand } from './brand-header.js';
import type { Html } from './layout.js';

export const isolated = (text: string): Html => html`<bdi>${text}</bdi>`;

/** The values of `sign.sentBy` and `state.sentBy`: `sender` the display name, `senderEmail` the address. */
export function senderValues(envelope: Pick<SigningEnvelope, 'senderEmail'>, brand: PageBrand | undefined): { sender: Html; senderEmail: Html } {
  return { sender: isolated(brand?.displayName ?? envelope.senderEmail), senderEmail: isolated(envelope.senderEmail) };
}

/** The envelope's title and who sent it, on the pages of a link with nothing to sign (yet). */
export const documentLine = (m: Messages, envelope: Pick<SigningEnvelope, 'title' | 'senderEmail'>, brand: PageBrand | undefined): Html =>
  html`<p class="envelope-line">${m.html('state.documentLine', { title: envelope.title })}<br>${m.html('state.sentBy', senderValues(envelope, brand))}</p>`;
