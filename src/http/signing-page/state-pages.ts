/**
 * The pages of a link with nothing to fill in: not this signer's turn yet, already signed,
 * declined, voided, expired, completed, a copy recipient's link, and an invalid link.
 */
import { html } from 'hono/html';
import type { SigningEnvelope, SigningState } from '../../domain/signing/signing-state.js';
import { type Html, dateText, noticePage } from './layout.js';
import { invalidLinkPage } from './notice-pages.js';
import { DECLINE_FIELD, type Problem, declineForm, problemSummary } from './sign-page.js';

export type OtherState = Exclude<SigningState, { kind: 'sign' }>;

const documentLine = (envelope: SigningEnvelope) =>
  html`<p class="envelope-line">Document: <strong class="envelope-title">${envelope.title}</strong><br>Sent by <span class="sender">${envelope.senderEmail}</span></p>`;

/** Declining before one's turn: the form, with what was sent and refused. */
export type EarlyDecline = { action: string; formToken: string; reason?: string; problems?: Problem[] };

export function statePage(state: OtherState, links: { document: string; download: string }, decline?: EarlyDecline): Html {
  switch (state.kind) {
    case 'invalid':
      return invalidLinkPage();
    case 'not_your_turn':
      return noticePage({
        title: 'It is not your turn to sign yet',
        lead: html`Hello ${state.recipient.name}. This document is signed in order, and the people before you have not all signed yet.`,
        body: html`${documentLine(state.envelope)}<p>We will e-mail you when it is your turn; you can use the same link then.</p>
${decline ? earlyDecline(decline) : ''}`,
      });
    case 'signed':
      return noticePage({
        title: 'You have signed',
        tone: 'success',
        lead: html`You signed on ${dateText(state.signedAt, true)}. Thank you.`,
        body: html`${documentLine(state.envelope)}<p>When everyone has signed, you will get an e-mail with the finished document.</p>`,
      });
    case 'declined':
      return state.byThisRecipient
        ? noticePage({
            title: 'You declined to sign',
            lead: 'You declined to sign this document. The sender has been told.',
            body: documentLine(state.envelope),
          })
        : noticePage({
            title: 'This document was declined',
            lead: 'Someone asked to sign this document declined, so it can no longer be signed.',
            body: html`${documentLine(state.envelope)}<p>If you have questions, contact the sender.</p>`,
            tone: 'warning',
          });
    case 'voided':
      return noticePage({
        title: 'This document was cancelled',
        lead: 'The sender cancelled this signing request; it can no longer be signed.',
        body: html`${documentLine(state.envelope)}<p>If you have questions, contact the sender.</p>`,
        tone: 'warning',
      });
    case 'expired':
      return noticePage({
        title: 'This signing request has expired',
        lead: state.envelope.expiresAt
          ? html`It could be signed until ${dateText(state.envelope.expiresAt, true)}.`
          : 'The time to sign this document is over.',
        body: html`${documentLine(state.envelope)}<p>Ask the sender for a new request if it still needs your signature.</p>`,
        tone: 'warning',
      });
    case 'completed':
      return noticePage({
        title: 'Everyone has signed',
        tone: 'success',
        lead: 'This document is complete: everyone asked to sign it has signed.',
        body: state.documentReady
          ? html`${documentLine(state.envelope)}
<p class="actions"><a class="button primary" href="${links.download}">Download the signed document (PDF)</a> <a class="button secondary" href="${links.document}">View it</a></p>`
          : html`${documentLine(state.envelope)}<p>The signed document is being prepared. You will get an e-mail with it when it is ready.</p>`,
      });
    case 'copy':
      return noticePage({
        title: 'You receive a copy',
        lead: 'You were sent this document to receive a copy; there is nothing for you to sign.',
        body: html`${documentLine(state.envelope)}<p>When everyone has signed, you will get an e-mail with the finished document.</p>`,
      });
  }
}

function earlyDecline(decline: EarlyDecline): Html {
  const problems = decline.problems ?? [];
  return html`${problems.length > 0 ? problemSummary(problems, (key) => (key === DECLINE_FIELD ? 'decline-reason' : null)) : ''}
${declineForm({ ...decline, problems: problems.filter((problem) => problem.field === DECLINE_FIELD).map((problem) => problem.message) })}`;
}
