/**
 * What a page inside an integrator's frame tells its parent (src/signing-page/embedding.ts), for
 * sign.js to send: the page allows no inline script, so it reads it from this element.
 */
import { html } from 'hono/html';
import type { Html } from './layout.js';

export type PageEmbed = { origin: string; envelopeId: string; recipientId: string; events: string[] };

export const embedMeta = (embed: PageEmbed | undefined): Html | string =>
  embed
    ? html`<meta name="esign-embed" data-origin="${embed.origin}" data-envelope-id="${embed.envelopeId}" data-recipient-id="${embed.recipientId}" data-events="${embed.events.join(' ')}">`
    : '';
