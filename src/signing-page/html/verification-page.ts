/**
 * The verification step: the page a link opens on when its role asks for a code and this browser
 * has not entered it. It shows the title and the sender, where the code goes (masked), and the
 * forms to send a code and to enter it; nothing of the document, no link to it.
 */
import { html } from 'hono/html';
import type { SigningState } from '../../domain/signing/signing-state.js';
import type { Messages } from '../../i18n/index.js';
import type { PageBrand } from './brand-header.js';
import type { PageEmbed } from './embed-meta.js';
import { type Html, type LanguageLinks, dateText, noticePage } from './layout.js';
import { documentLine } from './sender-line.js';

/** What came of the signer's last send or try, shown above the forms, with the answer's status. */
export type VerificationNotice =
  | { kind: 'wrong'; triesLeft: number; status: 422 }
  | { kind: 'dead' | 'expired' | 'no_code' | 'malformed'; triesLeft?: number; status: 422 }
  | { kind: 'too_soon'; at: Date; status: 429 }
  | { kind: 'unconfirmed'; at: Date; status: 202 }
  | { kind: 'not_sent'; status: 503 }
  | { kind: 'number_refused'; status: 422 };

type VerifyState = Extract<SigningState, { kind: 'verify' }>;

export type VerificationModel = {
  state: VerifyState;
  token: string;
  links: { sign: string; language?: LanguageLinks; brand?: PageBrand | undefined; embed?: PageEmbed | undefined };
  formToken: string;
  notice?: VerificationNotice | undefined;
};

export function verificationPage(m: Messages, model: VerificationModel): Html {
  const { state, links, notice } = model;
  const { step } = state;
  // The forms post beside the page, keeping its query (language, frame, proof).
  const action = (what: 'code' | 'verify') => links.sign.replace(`/sign/${model.token}`, `/sign/${model.token}/${what}`);
  const hidden = html`<input type="hidden" name="form_token" value="${model.formToken}"><input type="hidden" name="lang" value="${m.language}">`;
  const where = { channel: step.channel, destination: step.destination };
  // A refused code puts the signer back in the field, which reads out the error with its hint: the
  // page runs no script to move focus, and an alert present at load is not always announced.
  const codeRefused = notice?.status === 422 && notice.kind !== 'number_refused';
  const waiting = step.nextSendAt ? html`<p class="hint">${m.html('verify.nextSend', { time: dateText(m, step.nextSendAt, true) })}</p>` : '';
  const sendForm = (label: string, style: 'primary' | 'secondary') => html`<form method="post" action="${action('code')}" novalidate>
${hidden}
<button class="button ${style}" type="submit"${step.nextSendAt ? ' disabled' : ''}>${label}</button>
</form>
${waiting}`;
  const codeForm = step.code
    ? html`<p>${m.html('verify.sent', where)}</p>
<p class="hint">${m.html('verify.validUntil', { time: dateText(m, step.code.expiresAt, true), left: step.code.triesLeft })}</p>
<form method="post" action="${action('verify')}" novalidate>
${hidden}
<div class="field">
<label for="verification-code">${m.text('verify.codeLabel')}</label>
<p class="hint" id="verification-code-hint">${m.text('verify.codeHint')}</p>
<input type="text" id="verification-code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="20" required${codeRefused ? html` aria-invalid="true" aria-describedby="verification-error verification-code-hint" autofocus` : html` aria-describedby="verification-code-hint"`}>
</div>
<button class="button primary" type="submit">${m.text('verify.submit')}</button>
</form>
${sendForm(m.text('verify.resend'), 'secondary')}`
    : html`<p>${m.html('verify.willSend', where)}</p>
${sendForm(m.text('verify.send'), 'primary')}`;
  return noticePage({
    m,
    languageLinks: links.language,
    brand: links.brand,
    embed: links.embed,
    title: m.text('verify.title'),
    lead: m.text('verify.lead'),
    tone: notice ? 'warning' : 'info',
    body: html`${documentLine(m, state.envelope, links.brand)}
${notice ? html`<div class="error-summary" id="verification-error" role="alert" tabindex="-1" data-error-summary><p>${noticeText(m, notice)}</p></div>` : ''}
${codeForm}`,
  });
}

function noticeText(m: Messages, notice: VerificationNotice): Html | string {
  switch (notice.kind) {
    case 'wrong':
      return m.text('verify.wrong', { left: notice.triesLeft });
    case 'dead':
      return m.text('verify.dead');
    case 'expired':
      return m.text('verify.expired');
    case 'no_code':
      return m.text('verify.noCode');
    case 'malformed':
      return m.text('verify.malformed');
    case 'too_soon':
      return m.html('verify.nextSend', { time: dateText(m, notice.at, true) });
    case 'unconfirmed':
      return m.html('verify.unconfirmed', { time: dateText(m, notice.at, true) });
    case 'not_sent':
      return m.text('verify.notSent');
    case 'number_refused':
      return m.text('verify.numberRefused');
  }
}

/** The document asked for before the code was entered in this browser: 403, and where to go instead. */
export const documentLockedPage = (m: Messages): Html =>
  noticePage({ m, title: m.text('verify.title'), lead: m.text('verify.documentLocked'), tone: 'warning' });
