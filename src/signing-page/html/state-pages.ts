/**
 * The pages of a link with nothing to fill in: not this signer's turn yet, already signed,
 * declined, voided, expired, completed, a copy recipient's link, and an invalid link.
 */
import { html } from 'hono/html';
import type { SigningState } from '../../domain/signing/signing-state.js';
import type { Messages } from '../../i18n/index.js';
import type { PageBrand } from './brand-header.js';
import type { PageEmbed } from './embed-meta.js';
import { type Html, type LanguageLinks, dateText, noticePage } from './layout.js';
import { invalidLinkPage } from './notice-pages.js';
import { documentLine } from './sender-line.js';
import { DECLINE_FIELD, type Problem, declineForm, problemSummary, problemText } from './sign-page.js';

export type OtherState = Exclude<SigningState, { kind: 'sign' } | { kind: 'verify' }>;

/** Declining before one's turn: the form, with what was sent and refused. */
export type EarlyDecline = { action: string; formToken: string; reason?: string; problems?: Problem[] };

export function statePage(
  m: Messages,
  state: OtherState,
  links: { document: string; download: string; language?: LanguageLinks; brand?: PageBrand | undefined; embed?: PageEmbed | undefined },
  decline?: EarlyDecline,
): Html {
  const page = (options: Omit<Parameters<typeof noticePage>[0], 'm' | 'languageLinks'>) =>
    noticePage({ m, languageLinks: links.language, brand: links.brand, embed: links.embed, ...options });
  const paragraph = (text: string) => html`<p>${text}</p>`;
  switch (state.kind) {
    case 'invalid':
      return invalidLinkPage(m); // no switcher: the page names nothing of the link, not even its address
    case 'not_your_turn':
      return page({
        title: m.text('notYourTurn.title'),
        lead: m.html('notYourTurn.lead', { name: state.recipient.name }),
        body: html`${documentLine(m, state.envelope, links.brand)}${paragraph(m.text('notYourTurn.body'))}
${decline ? earlyDecline(m, decline) : ''}`,
      });
    case 'signed':
      return page({
        title: m.text('signed.title'),
        tone: 'success',
        lead: m.html('signed.lead', { date: dateText(m, state.signedAt, true) }),
        body: html`${documentLine(m, state.envelope, links.brand)}${paragraph(m.text('state.emailWhenDone'))}`,
      });
    case 'declined':
      return state.byThisRecipient
        ? page({ title: m.text('declinedByYou.title'), lead: m.text('declinedByYou.lead'), body: documentLine(m, state.envelope, links.brand) })
        : page({
            title: m.text('declined.title'),
            lead: m.text('declined.lead'),
            body: html`${documentLine(m, state.envelope, links.brand)}${paragraph(m.text('state.questions'))}`,
            tone: 'warning',
          });
    case 'voided':
      return page({
        title: m.text('voided.title'),
        lead: m.text('voided.lead'),
        body: html`${documentLine(m, state.envelope, links.brand)}${paragraph(m.text('state.questions'))}`,
        tone: 'warning',
      });
    case 'expired':
      return page({
        title: m.text('expired.title'),
        lead: state.envelope.expiresAt ? m.html('expired.leadUntil', { date: dateText(m, state.envelope.expiresAt, true) }) : m.text('expired.lead'),
        body: html`${documentLine(m, state.envelope, links.brand)}${paragraph(m.text('expired.body'))}`,
        tone: 'warning',
      });
    case 'completed':
      return page({
        title: m.text('completed.title'),
        tone: 'success',
        lead: m.text('completed.lead'),
        body: state.documentReady
          ? html`${documentLine(m, state.envelope, links.brand)}
<p class="actions"><a class="button primary" href="${links.download}">${m.text('completed.download')}</a> <a class="button secondary" href="${links.document}">${m.text('completed.view')}</a></p>`
          : html`${documentLine(m, state.envelope, links.brand)}${paragraph(m.text('completed.preparing'))}`,
      });
    case 'copy':
      return page({
        title: m.text('copy.title'),
        lead: m.text('copy.lead'),
        body: html`${documentLine(m, state.envelope, links.brand)}${paragraph(m.text('state.emailWhenDone'))}`,
      });
  }
}

function earlyDecline(m: Messages, decline: EarlyDecline): Html {
  const problems = decline.problems ?? [];
  return html`${
    problems.length > 0
      ? problemSummary(
          m,
          problems.map((problem) => problemText(m, problem, [])),
          (key) => (key === DECLINE_FIELD ? 'decline-reason' : null),
        )
      : ''
  }
${declineForm(m, {
  ...decline,
  problems: problems.filter((problem) => problem.field === DECLINE_FIELD).map((problem) => problemText(m, problem, []).message),
})}`;
}
