/**
 * The page of a signer whose turn it is: the envelope, the document (drawn by pdf.js in the
 * browser, with what earlier signers filled in and this signer's fields as boxes over its pages), the form of those fields with the
 * consent, and declining. It works without script too: the pages then are a link to the PDF and
 * signatures are typed.
 */
import { html } from 'hono/html';
import type { FieldType } from '../../data/schema.js';
import { MAX_TEXT_VALUE_CHARS, type Problem, type SigningField, type SigningState, consentFor } from '../../domain/signing/signing-state.js';
import type { MessageKey, Messages } from '../../i18n/index.js';
import type { Language } from '../../i18n/languages.js';
import type { PageBrand } from './brand-header.js';
import type { PageEmbed } from './embed-meta.js';
import { kindControl, localDate } from './kind-controls.js';
import { earlierBoxes } from './earlier-boxes.js';
import { isolated, senderValues } from './sender-line.js';
import { type Html, type LanguageLinks, dateText, layout } from './layout.js';

export type SignState = Extract<SigningState, { kind: 'sign' }>;
export type { Problem };
/** A problem as the page words it, in the signer's language. */
export type ShownProblem = { field: string | null; message: string };

export type SignPageModel = {
  state: SignState;
  links: {
    sign: string;
    decline: string;
    document: string;
    download: string;
    /** The document with what earlier signers put on it, to open and to save: the links' targets once there is any. */
    filledDocument: string;
    filledDownload: string;
    language?: LanguageLinks;
    brand?: PageBrand | undefined;
    embed?: PageEmbed | undefined;
  };
  formToken: string;
  /** What the signer sent, shown again beside the problems (values by field id). */
  values?: Record<string, string>;
  consentGiven?: boolean;
  reason?: string;
  problems?: Problem[];
};

export const DECLINE_FIELD = 'reason';
export const inputIdOf = (fieldId: string) => `input-${fieldId}`;
export const errorIdOf = (fieldId: string) => `error-${fieldId}`;
export const CONSENT_FIELD = 'consent';

/** The sender's label, else the field's kind in the signer's language. */
export const labelOf = (m: Messages, field: Pick<SigningField, 'label' | 'type'>) => field.label?.trim() || m.text(`field.label.${field.type}` as MessageKey);
const boxTextOf = (m: Messages, type: FieldType) =>
  type === 'checkbox' || type === 'radio'
    ? ''
    : m.text((type === 'signature' || type === 'initials' || type === 'name' || type === 'email' ? `field.box.${type}` : `field.label.${type}`) as MessageKey);
const inputId = (fieldId: string) => `input-${fieldId}`;
const errorId = (fieldId: string) => `error-${fieldId}`;
const DRAWN = /^data:image\/png;base64,/;

/** A problem in the signer's words: the field it is about is named by its label. */
export function problemText(m: Messages, problem: Problem, fields: SigningField[]): ShownProblem {
  const field = fields.find((candidate) => candidate.id === problem.field);
  const name = field ? labelOf(m, field) : '';
  return {
    field: problem.field,
    message: m.text(`problem.${problem.code}` as MessageKey, { name, max: problem.max ?? MAX_TEXT_VALUE_CHARS, min: problem.min ?? 0 }),
  };
}

/** The hidden part of both forms: the page's language, which names the consent the signer saw. */
const languageInput = (m: Messages) => html`<input type="hidden" name="lang" value="${m.language}">`;

/** Top to bottom, page by page: the order the form and the boxes are read in. */
const readingOrder = (a: SigningField, b: SigningField) => a.page - b.page || a.y - b.y || a.x - b.x;

export function signPage(m: Messages, model: SignPageModel): Html {
  const { state } = model;
  const fields = [...state.fields].sort(readingOrder);
  const problems = (model.problems ?? []).map((problem) => problemText(m, problem, fields));
  const problemOf = (key: string) => problems.filter((problem) => problem.field === key).map((problem) => problem.message);
  const known = new Set([...fields.map((field) => field.id), CONSENT_FIELD, DECLINE_FIELD]);
  const anchorOf = (key: string | null) => (key === null || !known.has(key) ? null : key === DECLINE_FIELD ? 'decline-reason' : inputId(key));
  const declineProblems = problemOf(DECLINE_FIELD);
  // The PDF behind the links then has earlier signers' values too; the viewer (data-document) keeps the original, which the boxes draw over.
  const filled = (state.earlier ?? []).length > 0;

  return layout({
    m,
    languageLinks: model.links.language,
    brand: model.links.brand,
    embed: model.links.embed,
    title: m.text('sign.title', { title: state.envelope.title }),
    withScript: true,
    documentFont: filled,
    main: html`<div class="envelope-head">
<p class="eyebrow">${m.text('sign.eyebrow')}</p>
<h1><bdi>${state.envelope.title}</bdi></h1>
<p class="envelope-meta">${m.html('sign.sentBy', {
      ...senderValues(state.envelope, model.links.brand),
      name: isolated(state.recipient.name),
      email: isolated(state.recipient.email),
    })}${state.envelope.expiresAt ? html`<br>${m.html('sign.signBy', { deadline: dateText(m, state.envelope.expiresAt, true) })}` : ''}</p>
</div>
${state.envelope.message ? html`<section class="message" aria-labelledby="message-title"><h2 id="message-title">${m.text('sign.messageTitle')}</h2><p class="message-text" dir="auto">${state.envelope.message}</p></section>` : ''}
${problems.length > 0 ? problemSummary(m, problems, anchorOf) : ''}
<div class="signing-layout">
<section class="document" aria-labelledby="document-title">
<h2 id="document-title">${m.text('sign.documentTitle')}</h2>
<p class="document-links"><a href="${filled ? model.links.filledDocument : model.links.document}" target="_blank" rel="noopener noreferrer">${m.text('sign.openPdf')}<span class="visually-hidden"> ${m.text('sign.newTab')}</span></a><a href="${filled ? model.links.filledDownload : model.links.download}">${m.text('sign.downloadPdf')}</a><a href="#form-title">${m.text('sign.goToForm')}</a></p>
${filled ? html`<p class="hint">${m.text('sign.pdfWithEarlier')}</p>` : ''}
<p class="hint js-only">${m.text('sign.boxesHint')}</p>
<p class="pages-status" role="status" data-pages-status data-say-loading="${m.text('sign.loading')}" data-say-failed="${m.text('sign.notShown')}" data-say-some-failed="${m.text('sign.someNotShown')}"></p>
<div class="pages js-only" data-document="${model.links.document}">
${state.pages.map((size, index) => {
  const number = index + 1;
  return html`<div class="page" data-page="${number}" data-width="${size.width}" data-height="${size.height}">
<p class="page-label">${m.text('sign.pageOf', { number, count: state.pages.length })}</p>
<div class="page-sheet">${earlierBoxes(m, state.earlier ?? [], number)}${fields.filter((field) => field.page === number).map((field) => fieldBox(m, field, model.values?.[field.id]))}</div>
</div>`;
})}
</div>
</section>
<section class="signing-panel" aria-labelledby="form-title">
<h2 id="form-title">${m.text('sign.formTitle')}</h2>
<form class="sign-form" method="post" action="${model.links.sign}" novalidate data-sign-form>
<input type="hidden" name="form_token" value="${model.formToken}">
${languageInput(m)}
${fields.length > 0 ? '' : html`<p class="hint">${m.text('sign.noFields')}</p>`}
${fields.map((field) => fieldControl(m, field, model.values?.[field.id], problemOf(field.id), state.envelope.language))}
${consentControl(m, model.consentGiven ?? false, consentProblems(m, problems, model.consentGiven ?? false))}
<button class="button primary sign-button" type="submit" data-busy-label="${m.text('sign.submitting')}">${m.text('sign.submit')}</button>
</form>
${declineForm(m, { action: model.links.decline, formToken: model.formToken, reason: model.reason, problems: declineProblems })}
</section>
</div>`,
  });
}

/**
 * Declining, with its reason: folded away under the sign form, open when its reason was refused.
 * Also on the page of a signer whose turn has not come, who may decline already.
 */
export function declineForm(m: Messages, options: { action: string; formToken: string; reason?: string; problems: string[] }): Html {
  const { problems } = options;
  return html`<details class="decline"${problems.length > 0 ? ' open' : ''}>
<summary>${m.text('decline.summary')}</summary>
<form method="post" action="${options.action}" novalidate>
<input type="hidden" name="form_token" value="${options.formToken}">
${languageInput(m)}
<p>${m.text('decline.explain')}</p>
<label for="decline-reason">${m.text('decline.reason')} <span class="required-mark">${m.text('field.required')}</span></label>
<p class="hint" id="decline-reason-hint">${m.text('decline.limit', { max: MAX_TEXT_VALUE_CHARS })}</p>
<textarea id="decline-reason" name="reason" rows="3" maxlength="${MAX_TEXT_VALUE_CHARS}" required${describedBy('decline-reason-hint', problems.length > 0 ? errorId(DECLINE_FIELD) : null)}${invalid(problems)}>${options.reason ?? ''}</textarea>
${errorText(m, DECLINE_FIELD, problems)}
<button class="button danger" type="submit">${m.text('decline.submit')}</button>
</form>
</details>`;
}

export function problemSummary(m: Messages, problems: ShownProblem[], anchorOf: (key: string | null) => string | null): Html {
  return html`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="problems-title" data-error-summary>
<h2 id="problems-title">${m.text('problems.title')}</h2>
<ul>${problems.map((problem) => {
    const anchor = anchorOf(problem.field);
    return html`<li>${anchor ? html`<a href="#${anchor}">${problem.message}</a>` : problem.message}</li>`;
  })}</ul>
</div>`;
}

/** The box over the page where the field is, a link to its control in the form. */
function fieldBox(m: Messages, field: SigningField, value: string | undefined): Html {
  const filledIn = field.type === 'name' || field.type === 'email' || field.type === 'date_signed' ? field.prefill : null;
  // A check box's box is too small for words: it shows a tick once checked.
  const placeholder = filledIn ?? (field.type === 'checkbox' ? '' : field.label?.trim() || boxTextOf(m, field.type));
  const typed = value && !DRAWN.test(value) && field.type !== 'checkbox' ? (field.type === 'date' ? localDate(m, value) : value) : null;
  return html`<a class="field-box field-box-${field.type}${field.required ? ' field-box-required' : ''}" href="#field-${field.id}" data-field-box="${field.id}" data-x="${field.x}" data-y="${field.y}" data-w="${field.width}" data-h="${field.height}" data-placeholder="${placeholder}"><span class="field-box-text" data-box-text>${
    typed ?? placeholder
  }</span><span class="visually-hidden"> ${m.text('field.goTo', { label: labelOf(m, field) })}</span></a>`;
}

export const describedBy = (...ids: (string | null)[]) => {
  const present = ids.filter((id): id is string => id !== null);
  return present.length > 0 ? html` aria-describedby="${present.join(' ')}"` : '';
};
export const invalid = (problems: string[]) => (problems.length > 0 ? html` aria-invalid="true"` : '');
export const requiredMark = (m: Messages, field: SigningField) => (field.required ? html` <span class="required-mark">${m.text('field.required')}</span>` : '');

export function errorText(m: Messages, key: string, problems: string[]): Html | string {
  if (problems.length === 0) return '';
  return html`<p class="field-error" id="${errorId(key)}"><span class="visually-hidden">${m.text('field.errorPrefix')} </span>${problems.join(' ')}</p>`;
}

function fieldControl(m: Messages, field: SigningField, value: string | undefined, problems: string[], documentLanguage: Language | null): Html {
  const id = inputId(field.id);
  const error = problems.length > 0 ? errorId(field.id) : null;
  const name = `field.${field.id}`;
  switch (field.type) {
    case 'signature':
    case 'initials':
      return signatureControl(m, field, value, problems);
    case 'text':
      return html`<div class="field" id="field-${field.id}">
<label for="${id}">${labelOf(m, field)}${requiredMark(m, field)}</label>
<input id="${id}" name="${name}" type="text" maxlength="${MAX_TEXT_VALUE_CHARS}" value="${value ?? ''}" data-field-input="${field.id}"${field.required ? html` aria-required="true"` : ''}${describedBy(error)}${invalid(problems)}>
${errorText(m, field.id, problems)}
</div>`;
    case 'checkbox':
      return html`<div class="field field-checkbox" id="field-${field.id}">
<input id="${id}" name="${name}" type="checkbox" value="yes"${value === 'yes' ? ' checked' : ''} data-field-input="${field.id}"${field.required ? html` aria-required="true"` : ''}${describedBy(error)}${invalid(problems)}>
<label for="${id}">${labelOf(m, field)}${requiredMark(m, field)}</label>
${errorText(m, field.id, problems)}
</div>`;
    case 'date':
    case 'number':
    case 'dropdown':
    case 'radio':
      return kindControl(m, field, value, problems, documentLanguage);
    case 'date_signed':
    case 'name':
    case 'email': {
      const hint = m.text(field.type === 'date_signed' ? 'field.dateHint' : 'field.fixedHint');
      const shown = field.prefill ?? (field.type === 'date_signed' ? m.text('field.dateLater') : '');
      // No name: the service fills these in itself, so nothing of them is posted.
      return html`<div class="field field-readonly" id="field-${field.id}">
<label for="${id}">${labelOf(m, field)}</label>
<input id="${id}" type="text" readonly value="${shown}"${describedBy(`hint-${field.id}`, error)}${invalid(problems)}>
<p class="hint" id="hint-${field.id}">${hint}</p>
${errorText(m, field.id, problems)}
</div>`;
    }
  }
}

/**
 * A signature or initials: typed in a text input that carries the field's name, or, with script,
 * drawn on a canvas whose PNG goes into a hidden input that then carries the name instead.
 */
function signatureControl(m: Messages, field: SigningField, value: string | undefined, problems: string[]): Html {
  const id = inputId(field.id);
  const error = problems.length > 0 ? errorId(field.id) : null;
  const name = `field.${field.id}`;
  const drawn = value !== undefined && DRAWN.test(value);
  const initials = field.type === 'initials';
  const kind = { kind: field.type };
  return html`<fieldset class="field field-signature" id="field-${field.id}" data-signature="${field.id}" data-mode="${drawn ? 'draw' : 'type'}"${describedBy(error)}>
<legend>${labelOf(m, field)}${requiredMark(m, field)}</legend>
<fieldset class="signature-modes js-only">
<legend class="visually-hidden">${m.text('signature.how', kind)}</legend>
<input type="radio" id="mode-type-${field.id}" name="mode.${field.id}" value="type" data-mode-choice${drawn ? '' : ' checked'}><label for="mode-type-${field.id}">${m.text('signature.type')}</label>
<input type="radio" id="mode-draw-${field.id}" name="mode.${field.id}" value="draw" data-mode-choice${drawn ? ' checked' : ''}><label for="mode-draw-${field.id}">${m.text('signature.draw')}</label>
</fieldset>
<div class="signature-typed" data-typed>
<label for="${id}">${m.text('signature.typePrompt', kind)}</label>
<input id="${id}" type="text" class="typed-signature" maxlength="${MAX_TEXT_VALUE_CHARS}" autocomplete="${initials ? 'off' : 'name'}" value="${drawn ? '' : (value ?? '')}" data-field-input="${field.id}"${drawn ? '' : html` name="${name}"`}${field.required ? html` aria-required="true"` : ''}${describedBy(error)}${invalid(problems)}>
</div>
<div class="signature-drawn" data-drawn hidden>
<p class="hint" id="draw-hint-${field.id}" aria-live="polite" data-too-detailed="${m.text('signature.tooDetailed')}">${m.text('signature.drawHint', kind)}</p>
<canvas class="signature-pad${initials ? ' signature-pad-initials' : ''}" width="${initials ? 300 : 600}" height="${initials ? 150 : 200}" role="img" aria-label="${m.text('signature.pad', kind)}" aria-describedby="draw-hint-${field.id}" data-pad></canvas>
<input type="hidden" value="${drawn ? value : ''}" data-drawn-value${drawn ? html` name="${name}"` : ''}>
<button class="button secondary small" type="button" data-clear>${m.text('signature.clear')}</button>
</div>
${errorText(m, field.id, problems)}
</fieldset>`;
}

/**
 * A refused form without consent marks the consent box itself too: the domain may tell that
 * problem without naming a field, and the box is where it is solved.
 */
function consentProblems(m: Messages, problems: ShownProblem[], given: boolean): string[] {
  const own = problems.filter((problem) => problem.field === CONSENT_FIELD).map((problem) => problem.message);
  if (own.length > 0 || given || problems.length === 0) return own;
  return [m.text('problem.consent_tick')];
}

/** The consent in the page's language: the text the signer agrees to, and its version, which names that language. */
function consentControl(m: Messages, given: boolean, problems: string[]): Html {
  const consent = consentFor(m.language);
  const error = problems.length > 0 ? errorId(CONSENT_FIELD) : null;
  return html`<div class="field field-checkbox consent" id="field-consent">
<input id="${inputId(CONSENT_FIELD)}" name="consent" type="checkbox" value="yes"${given ? ' checked' : ''} aria-required="true"${describedBy('consent-version', error)}${invalid(problems)}>
<label for="${inputId(CONSENT_FIELD)}">${consent.text}</label>
<p class="hint" id="consent-version">${m.text('consent.version', { version: consent.version })}</p>
${errorText(m, CONSENT_FIELD, problems)}
</div>`;
}
