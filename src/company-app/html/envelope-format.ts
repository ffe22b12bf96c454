/** How the envelope pages write times and states: UTC to the minute, in a `<time>` a program can read. */
import { html } from 'hono/html';
import type { EnvelopeStatus, RecipientStatus } from '../../data/schema.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import type { Html } from './layout.js';

export const timeText = (at: Date) => `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;

export const timeOf = (at: Date | null, none = ''): Html | string => (at ? html`<time datetime="${at.toISOString()}">${timeText(at)}</time>` : none);

export const envelopeStateText = (m: AppMessages, state: EnvelopeStatus) => m.text(`envelopes.state.${state}`);
export const recipientStateText = (m: AppMessages, state: RecipientStatus) => m.text(`envelopes.recipientState.${state}`);

export const stateBadge = (m: AppMessages, state: EnvelopeStatus): Html => html`<span class="badge badge-${state}">${envelopeStateText(m, state)}</span>`;
