/**
 * The page of a signer whose turn it is: the envelope, the document (drawn by pdf.js in the
 * browser, with this signer's fields as boxes over its pages), the form of those fields with the
 * consent, and declining. It works without script too: the pages then are a link to the PDF and
 * signatures are typed.
 */
import { html } from 'hono/html';
import type { FieldType } from '../../data/schema.js';
import { MAX_TEXT_VALUE_CHARS, type SigningField, type SigningState, consent } from '../../domain/signing/signing-state.js';
import { type Html, dateText, layout } from './layout.js';

export type SignState = Extract<SigningState, { kind: 'sign' }>;
export type Problem = { field: string | null; message: string };

export type SignPageModel = {
  state: SignState;
  links: { sign: string; decline: string; document: string; download: string };
  formToken: string;
  /** What the signer sent, shown again beside the problems (values by field id). */
  values?: Record<string, string>;
  consentGiven?: boolean;
  reason?: string;
  problems?: Problem[];
};

const defaultLabel: Record<FieldType, string> = {
  signature: 'Signature',
  initials: 'Initials',
  date_signed: 'Date signed',
  text: 'Text',
  checkbox: 'Check box',
  name: 'Full name',
  email: 'E-mail address',
};

const boxText: Record<FieldType, string> = {
  signature: 'Sign here',
  initials: 'Initial here',
  date_signed: 'Date signed',
  text: 'Text',
  checkbox: '',
  name: 'Name',
  email: 'E-mail',
};

export const DECLINE_FIELD = 'reason';
export const CONSENT_FIELD = 'consent';

const labelOf = (field: SigningField) => field.label?.trim() || defaultLabel[field.type];
const inputId = (fieldId: string) => `input-${fieldId}`;
const errorId = (fieldId: string) => `error-${fieldId}`;
const DRAWN = /^data:image\/png;base64,/;

/** Top to bottom, page by page: the order the form and the boxes are read in. */
const readingOrder = (a: SigningField, b: SigningField) => a.page - b.page || a.y - b.y || a.x - b.x;

export function signPage(model: SignPageModel): Html {
  const { state } = model;
  const fields = [...state.fields].sort(readingOrder);
  const problems = model.problems ?? [];
  const problemOf = (key: string) => problems.filter((problem) => problem.field === key).map((problem) => problem.message);
  const known = new Set([...fields.map((field) => field.id), CONSENT_FIELD, DECLINE_FIELD]);
  const anchorOf = (key: string | null) =>
    key === null || !known.has(key) ? null : key === DECLINE_FIELD ? 'decline-reason' : inputId(key);
  const declineProblems = problemOf(DECLINE_FIELD);

  return layout({
    title: `Sign: ${state.envelope.title}`,
    withScript: true,
    main: html`<div class="envelope-head">
<p class="eyebrow">Please review and sign</p>
<h1>${state.envelope.title}</h1>
<p class="envelope-meta">Sent by <strong>${state.envelope.senderEmail}</strong> to ${state.recipient.name} (${state.recipient.email})${
      state.envelope.expiresAt ? html`<br>Sign by ${dateText(state.envelope.expiresAt, true)}` : ''
    }</p>
</div>
${state.envelope.message ? html`<section class="message" aria-labelledby="message-title"><h2 id="message-title">Message from the sender</h2><p class="message-text">${state.envelope.message}</p></section>` : ''}
${problems.length > 0 ? problemSummary(problems, anchorOf) : ''}
<div class="signing-layout">
<section class="document" aria-labelledby="document-title">
<h2 id="document-title">Document</h2>
<p class="document-links"><a href="${model.links.document}" target="_blank" rel="noopener noreferrer">Open the PDF<span class="visually-hidden"> (opens in a new tab)</span></a><a href="${model.links.download}">Download the PDF</a><a href="#form-title">Go to the form</a></p>
<p class="hint js-only">Your fields are highlighted on the pages. Select one to go to it in the form.</p>
<p class="pages-status" role="status" data-pages-status></p>
<div class="pages js-only" data-document="${model.links.document}">
${state.pages.map((size, index) => {
  const number = index + 1;
  return html`<div class="page" data-page="${number}" data-width="${size.width}" data-height="${size.height}">
<p class="page-label">Page ${number} of ${state.pages.length}</p>
<div class="page-sheet">${fields.filter((field) => field.page === number).map((field) => fieldBox(field, model.values?.[field.id]))}</div>
</div>`;
})}
</div>
</section>
<section class="signing-panel" aria-labelledby="form-title">
<h2 id="form-title">Fill in and sign</h2>
<form class="sign-form" method="post" action="${model.links.sign}" novalidate data-sign-form>
<input type="hidden" name="form_token" value="${model.formToken}">
${fields.length > 0 ? '' : html`<p class="hint">There are no fields for you to fill in: agree below and sign.</p>`}
${fields.map((field) => fieldControl(field, model.values?.[field.id], problemOf(field.id)))}
${consentControl(model.consentGiven ?? false, consentProblems(problems, model.consentGiven ?? false))}
<button class="button primary sign-button" type="submit">Sign</button>
</form>
${declineForm({ action: model.links.decline, formToken: model.formToken, reason: model.reason, problems: declineProblems })}
</section>
</div>`,
  });
}

/**
 * Declining, with its reason: folded away under the sign form, open when its reason was refused.
 * Also on the page of a signer whose turn has not come, who may decline already.
 */
export function declineForm(options: { action: string; formToken: string; reason?: string; problems: string[] }): Html {
  const { problems } = options;
  return html`<details class="decline"${problems.length > 0 ? ' open' : ''}>
<summary>Decline to sign</summary>
<form method="post" action="${options.action}" novalidate>
<input type="hidden" name="form_token" value="${options.formToken}">
<p>If you decline, the document cannot be completed and the sender is told, with your reason.</p>
<label for="decline-reason">Reason for declining <span class="required-mark">(required)</span></label>
<p class="hint" id="decline-reason-hint">At most ${MAX_TEXT_VALUE_CHARS} characters.</p>
<textarea id="decline-reason" name="reason" rows="3" maxlength="${MAX_TEXT_VALUE_CHARS}" required${describedBy('decline-reason-hint', problems.length > 0 ? errorId(DECLINE_FIELD) : null)}${invalid(problems)}>${options.reason ?? ''}</textarea>
${errorText(DECLINE_FIELD, problems)}
<button class="button danger" type="submit">Decline to sign</button>
</form>
</details>`;
}

export function problemSummary(problems: Problem[], anchorOf: (key: string | null) => string | null): Html {
  return html`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="problems-title" data-error-summary>
<h2 id="problems-title">Nothing was signed yet: please check the form</h2>
<ul>${problems.map((problem) => {
    const anchor = anchorOf(problem.field);
    return html`<li>${anchor ? html`<a href="#${anchor}">${problem.message}</a>` : problem.message}</li>`;
  })}</ul>
</div>`;
}

/** The box over the page where the field is, a link to its control in the form. */
function fieldBox(field: SigningField, value: string | undefined): Html {
  const filledIn = field.type === 'name' || field.type === 'email' || field.type === 'date_signed' ? field.prefill : null;
  // A check box's box is too small for words: it shows a tick once checked.
  const placeholder = filledIn ?? (field.type === 'checkbox' ? '' : field.label?.trim() || boxText[field.type]);
  const typed = value && !DRAWN.test(value) && field.type !== 'checkbox' ? value : null;
  return html`<a class="field-box field-box-${field.type}${field.required ? ' field-box-required' : ''}" href="#field-${field.id}" data-field-box="${field.id}" data-x="${field.x}" data-y="${field.y}" data-w="${field.width}" data-h="${field.height}" data-placeholder="${placeholder}"><span class="field-box-text" data-box-text>${
    typed ?? placeholder
  }</span><span class="visually-hidden"> (go to ${labelOf(field)} in the form)</span></a>`;
}

const describedBy = (...ids: (string | null)[]) => {
  const present = ids.filter((id): id is string => id !== null);
  return present.length > 0 ? html` aria-describedby="${present.join(' ')}"` : '';
};
const invalid = (problems: string[]) => (problems.length > 0 ? html` aria-invalid="true"` : '');
const requiredMark = (field: SigningField) => (field.required ? html` <span class="required-mark">(required)</span>` : '');

function errorText(key: string, problems: string[]): Html | string {
  if (problems.length === 0) return '';
  return html`<p class="field-error" id="${errorId(key)}"><span class="visually-hidden">Error: </span>${problems.join(' ')}</p>`;
}

function fieldControl(field: SigningField, value: string | undefined, problems: string[]): Html {
  const id = inputId(field.id);
  const error = problems.length > 0 ? errorId(field.id) : null;
  const name = `field.${field.id}`;
  switch (field.type) {
    case 'signature':
    case 'initials':
      return signatureControl(field, value, problems);
    case 'text':
      return html`<div class="field" id="field-${field.id}">
<label for="${id}">${labelOf(field)}${requiredMark(field)}</label>
<input id="${id}" name="${name}" type="text" maxlength="${MAX_TEXT_VALUE_CHARS}" value="${value ?? ''}" data-field-input="${field.id}"${field.required ? html` aria-required="true"` : ''}${describedBy(error)}${invalid(problems)}>
${errorText(field.id, problems)}
</div>`;
    case 'checkbox':
      return html`<div class="field field-checkbox" id="field-${field.id}">
<input id="${id}" name="${name}" type="checkbox" value="yes"${value === 'yes' ? ' checked' : ''} data-field-input="${field.id}"${field.required ? html` aria-required="true"` : ''}${describedBy(error)}${invalid(problems)}>
<label for="${id}">${labelOf(field)}${requiredMark(field)}</label>
${errorText(field.id, problems)}
</div>`;
    case 'date_signed':
    case 'name':
    case 'email': {
      const hint =
        field.type === 'date_signed' ? 'Filled in with the date when you sign.' : 'As the sender entered it; it cannot be changed here.';
      const shown = field.prefill ?? (field.type === 'date_signed' ? 'Filled in when you sign' : '');
      // No name: the service fills these in itself, so nothing of them is posted.
      return html`<div class="field field-readonly" id="field-${field.id}">
<label for="${id}">${labelOf(field)}</label>
<input id="${id}" type="text" readonly value="${shown}"${describedBy(`hint-${field.id}`, error)}${invalid(problems)}>
<p class="hint" id="hint-${field.id}">${hint}</p>
${errorText(field.id, problems)}
</div>`;
    }
  }
}

/**
 * A signature or initials: typed in a text input that carries the field's name, or, with script,
 * drawn on a canvas whose PNG goes into a hidden input that then carries the name instead.
 */
function signatureControl(field: SigningField, value: string | undefined, problems: string[]): Html {
  const id = inputId(field.id);
  const error = problems.length > 0 ? errorId(field.id) : null;
  const name = `field.${field.id}`;
  const drawn = value !== undefined && DRAWN.test(value);
  const initials = field.type === 'initials';
  const what = initials ? 'initials' : 'signature';
  return html`<fieldset class="field field-signature" id="field-${field.id}" data-signature="${field.id}" data-mode="${drawn ? 'draw' : 'type'}"${describedBy(error)}>
<legend>${labelOf(field)}${requiredMark(field)}</legend>
<fieldset class="signature-modes js-only">
<legend class="visually-hidden">How to give your ${what}</legend>
<input type="radio" id="mode-type-${field.id}" name="mode.${field.id}" value="type" data-mode-choice${drawn ? '' : ' checked'}><label for="mode-type-${field.id}">Type</label>
<input type="radio" id="mode-draw-${field.id}" name="mode.${field.id}" value="draw" data-mode-choice${drawn ? ' checked' : ''}><label for="mode-draw-${field.id}">Draw</label>
</fieldset>
<div class="signature-typed" data-typed>
<label for="${id}">${initials ? 'Type your initials' : 'Type your full name'}</label>
<input id="${id}" type="text" class="typed-signature" maxlength="${MAX_TEXT_VALUE_CHARS}" autocomplete="${initials ? 'off' : 'name'}" value="${drawn ? '' : (value ?? '')}" data-field-input="${field.id}"${drawn ? '' : html` name="${name}"`}${field.required ? html` aria-required="true"` : ''}${describedBy(error)}${invalid(problems)}>
</div>
<div class="signature-drawn" data-drawn hidden>
<p class="hint" id="draw-hint-${field.id}" aria-live="polite">Draw your ${what} in the box with a mouse, a finger or a pen.</p>
<canvas class="signature-pad${initials ? ' signature-pad-initials' : ''}" width="${initials ? 300 : 600}" height="${initials ? 150 : 200}" role="img" aria-label="Drawing area for your ${what}" aria-describedby="draw-hint-${field.id}" data-pad></canvas>
<input type="hidden" value="${drawn ? value : ''}" data-drawn-value${drawn ? html` name="${name}"` : ''}>
<button class="button secondary small" type="button" data-clear>Clear the drawing</button>
</div>
${errorText(field.id, problems)}
</fieldset>`;
}

/**
 * A refused form without consent marks the consent box itself too: the domain may tell that
 * problem without naming a field, and the box is where it is solved.
 */
function consentProblems(problems: Problem[], given: boolean): string[] {
  const own = problems.filter((problem) => problem.field === CONSENT_FIELD).map((problem) => problem.message);
  if (own.length > 0 || given || problems.length === 0) return own;
  return ['Tick this box to agree to sign electronically.'];
}

function consentControl(given: boolean, problems: string[]): Html {
  const error = problems.length > 0 ? errorId(CONSENT_FIELD) : null;
  return html`<div class="field field-checkbox consent" id="field-consent">
<input id="${inputId(CONSENT_FIELD)}" name="consent" type="checkbox" value="yes"${given ? ' checked' : ''} aria-required="true"${describedBy('consent-version', error)}${invalid(problems)}>
<label for="${inputId(CONSENT_FIELD)}">${consent.text}</label>
<p class="hint" id="consent-version">Consent version ${consent.version}</p>
${errorText(CONSENT_FIELD, problems)}
</div>`;
}
