/**
 * One file although long: the builder is one form (settings, roles, fields, the document's pages)
 * whose parts share the form's values and mistakes, and reads best in one place.
 *
 * The template builder as a plain form: it works without script, each add or remove a submit
 * button that brings the form back as it is; app-builder.js then draws the PDF's pages and the
 * fields as boxes on them, and writes each move back into the rows' inputs.
 */
import { html } from 'hono/html';
import { verificationMethods, type PageSize } from '../../data/schema.js';
import { fieldTypes } from '../../domain/templates/template-definition.js';
import type { AppMessageKey, AppMessages } from '../../i18n/app-messages.js';
import { LANGUAGES, languageNames } from '../../i18n/languages.js';
import {
  type BuilderErrors,
  type BuilderForm,
  emptyField,
  type FieldRowForm,
  type OptionBoxForm,
  type RoleRowForm,
  radioBoxesOf,
  type SignedDocument,
} from '../template-builder-form.js';
import { type Html, layout, type Shell } from './layout.js';
import { fieldError, kindName } from './templates-pages.js';

/**
 * Where the form posts and what it is about: a new template's upload, or a saved template's change
 * (with the PDF that replaces its document, once one is uploaded, and the largest one it takes).
 */
export type BuilderTarget =
  | { kind: 'new'; document: SignedDocument; pages: PageSize[] }
  | { kind: 'edit'; templateId: string; fileName: string; pages: PageSize[]; replacement?: SignedDocument; limit: string };

/** The colours roles are told apart by: the role's place in the list picks one (app.css). */
const ROLE_COLOURS = 8;

export function builderPage(
  m: AppMessages,
  shell: Shell,
  options: { target: BuilderTarget; form: BuilderForm; errors?: BuilderErrors; conflict?: boolean; replaced?: boolean },
): Html {
  const { target, form } = options;
  const errors = options.errors ?? {};
  const failed = Object.keys(errors).length > 0;
  const title = m.text(target.kind === 'new' ? 'builder.title' : 'builder.editTitle');
  const action = target.kind === 'new' ? '/app/templates/new/build' : `/app/templates/${target.templateId}/edit`;
  // The document the form is about: the upload (a new template's, or the one replacing a saved template's), else the saved one.
  const upload = target.kind === 'new' ? target.document : target.replacement;
  const fileName = upload?.fileName ?? (target.kind === 'edit' ? target.fileName : '');
  const documentUrl = upload ? uploadUrl(upload) : `/app/templates/${target.kind === 'edit' ? target.templateId : ''}/document.pdf`;
  const first = Object.keys(errors)[0];
  const e: Ctx = { m, errors, first };
  return layout({
    m,
    title,
    shell,
    main: html`<section class="panel panel-wide builder" aria-labelledby="builder-title">
<p><a href="/app/templates">${m.text('templates.back')}</a></p>
<h1 id="builder-title">${title}</h1>
${failed ? html`<p class="notice notice-warning" role="alert">${m.text('builder.errorsTitle')}</p>` : ''}
<p>${m.text('builder.lead')}</p>
<form method="post" action="${action}" class="builder-form"${target.kind === 'edit' ? html` enctype="multipart/form-data"` : ''} novalidate>
<button type="submit" name="action" value="save" class="visually-hidden" tabindex="-1" aria-hidden="true">${m.text('builder.save')}</button>
<input type="hidden" name="form_token" value="${shell.formToken}">
${
  upload
    ? html`<input type="hidden" name="document_key" value="${upload.stored.key}">
<input type="hidden" name="document_size" value="${upload.stored.size}">
<input type="hidden" name="document_sha256" value="${upload.stored.sha256}">
<input type="hidden" name="document_name" value="${upload.fileName}">
<input type="hidden" name="document_mac" value="${upload.signature}">`
    : ''
}
${target.kind === 'edit' ? html`<input type="hidden" name="template_id" value="${target.templateId}">` : ''}
${options.replaced ? html`<p class="notice notice-success" role="status">${m.text('builder.replaced')}</p>` : ''}
${options.conflict ? html`<p class="notice notice-warning" role="alert">${m.text('builder.conflict')}</p>` : ''}
${settingsPart(e, form)}
${rolesPart(e, form)}
<div class="builder-work">
<section class="builder-document" aria-labelledby="pages-title">
<h2 id="pages-title">${m.text('builder.pagesTitle')}</h2>
<p>${m.text('builder.document', { file: fileName, pages: target.pages.length })}</p>
${target.kind === 'edit' ? replacePart(e, target.limit) : ''}
<div class="builder-palette" role="group" aria-label="${m.text('builder.palette')}">
${fieldTypes.map((kind) => html`<button type="submit" name="action" value="add-field-${kind}" class="button-quiet" data-kind="${kind}">${m.text('builder.paletteAdd', { kind: kindName(m, kind) })}</button>`)}
</div>
<ol class="builder-pages" data-document="${documentUrl}">
${target.pages.map((page, index) => html`<li class="builder-page" data-page="${index + 1}" data-width="${page.width}" data-height="${page.height}">${m.text('builder.pageSize', { page: index + 1, width: page.width, height: page.height })}</li>`)}
</ol>
</section>
${fieldsPart(e, form, target.pages.length)}
</div>
${newFieldTemplate(m, form, target.pages.length)}
${newOptionTemplate(m)}
<div class="actions">
<button type="submit" name="action" value="save">${m.text('builder.save')}</button>
<a href="/app/templates">${m.text('builder.cancel')}</a>
</div>
</form>
</section>
<script type="module" src="/static/app-builder.js"></script>`,
  });
}

/** A new PDF for a saved template: posted with the form, so what was changed on the page is kept. */
function replacePart(ctx: Ctx, limit: string): Html {
  const { m } = ctx;
  const id = 'replace_document';
  return html`<div class="${fieldClass(ctx, id)} builder-replace">
<label for="${id}">${m.text('builder.replace')}</label>
<p class="hint" id="${id}-hint">${m.text('builder.replaceHint', { limit })}</p>
${errorOf(ctx, id)}
<input type="file" id="${id}" name="document" accept="application/pdf,.pdf"${marks(ctx, id, `${id}-hint`)}>
<button type="submit" name="action" value="replace-document" class="button-quiet">${m.text('builder.replaceSubmit')}</button>
</div>`;
}

/** A signed address of the uploaded PDF, which app-builder.js draws the pages from. */
const uploadUrl = (document: SignedDocument) =>
  `/app/templates/upload.pdf?${new URLSearchParams({ key: document.stored.key, size: String(document.stored.size), sha256: document.stored.sha256, name: document.fileName, mac: document.signature }).toString()}`;

type Ctx = { m: AppMessages; errors: BuilderErrors; first: string | undefined };

/** An input's attributes for its mistake: described by its message, marked, focused when first. */
function marks({ errors, first }: Ctx, id: string, hint?: string): Html {
  const described = [errors[id] ? `${id}-error` : '', hint ?? ''].filter(Boolean).join(' ');
  return html`${described ? html` aria-describedby="${described}"` : ''}${errors[id] ? html` aria-invalid="true"` : ''}${first === id ? html` autofocus` : ''}`;
}
const errorOf = ({ m, errors }: Ctx, id: string) => (errors[id] ? fieldError(m, `${id}-error`, m.text(errors[id] as AppMessageKey)) : '');
const fieldClass = (ctx: Ctx, id: string) => `field${ctx.errors[id] ? ' field-invalid' : ''}`;

function textInput(ctx: Ctx, id: string, label: string, value: string, options: { max?: number; type?: string; hint?: string; className?: string } = {}): Html {
  return html`<div class="${fieldClass(ctx, id)}${options.className ? ` ${options.className}` : ''}">
<label for="${id}">${label}</label>
${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
${errorOf(ctx, id)}
<input id="${id}" name="${id}" type="${options.type ?? 'text'}"${options.type === 'number' ? html` inputmode="numeric" step="1"` : ''}${options.max ? html` maxlength="${options.max}"` : ''} value="${value}"${marks(ctx, id, options.hint ? `${id}-hint` : undefined)}>
</div>`;
}

function select(ctx: Ctx, id: string, label: string, value: string, choices: [string, string][], className?: string): Html {
  return html`<div class="${fieldClass(ctx, id)}${className ? ` ${className}` : ''}">
<label for="${id}">${label}</label>
${errorOf(ctx, id)}
<select id="${id}" name="${id}"${marks(ctx, id)}>
${choices.map(([choice, text]) => html`<option value="${choice}"${choice === value ? ' selected' : ''}>${text}</option>`)}
</select>
</div>`;
}

function check(ctx: Ctx, id: string, label: string, checked: boolean): Html {
  return html`<div class="check"><input type="checkbox" id="${id}" name="${id}" value="yes"${checked ? ' checked' : ''}${marks(ctx, id)}><label for="${id}">${label}</label></div>`;
}

function settingsPart(ctx: Ctx, form: BuilderForm): Html {
  const { m } = ctx;
  return html`<fieldset class="builder-settings">
<legend>${m.text('builder.settings')}</legend>
${textInput(ctx, 'name', m.text('builder.name'), form.name, { max: 250 })}
${textInput(ctx, 'email_subject', m.text('builder.subject'), form.email_subject, { max: 300 })}
<div class="${fieldClass(ctx, 'email_message')}">
<label for="email_message">${m.text('builder.message')}</label>
${errorOf(ctx, 'email_message')}
<textarea id="email_message" name="email_message" rows="4" maxlength="5000"${marks(ctx, 'email_message')}>${form.email_message}</textarea>
</div>
${textInput(ctx, 'expiry_days', m.text('builder.expiry'), form.expiry_days, { type: 'number', hint: m.text('builder.expiryHint') })}
${textInput(ctx, 'reminder_first', m.text('builder.reminderFirst'), form.reminder_first, { type: 'number', hint: m.text('builder.remindersHint') })}
${textInput(ctx, 'reminder_every', m.text('builder.reminderEvery'), form.reminder_every, { type: 'number' })}
${select(ctx, 'signing_order', m.text('builder.order'), form.signing_order, [
  ['sequential', m.text('template.order.sequential')],
  ['parallel', m.text('template.order.parallel')],
])}
${check(ctx, 'share_signing_links', m.text('builder.share'), form.share_signing_links)}
${select(ctx, 'language', m.text('builder.language'), form.language, [['', m.text('template.languageCompany')], ...LANGUAGES.map((language): [string, string] => [language, languageNames[language]])])}
</fieldset>`;
}

function rolesPart(ctx: Ctx, form: BuilderForm): Html {
  const { m } = ctx;
  return html`<fieldset class="builder-roles${ctx.errors.roles ? ' field-invalid' : ''}">
<legend>${m.text('builder.roles')}</legend>
${errorOf(ctx, 'roles')}
${form.roles.map((role, index) => roleRow(ctx, role, index))}
<div class="actions"><button type="submit" name="action" value="add-role" class="button-quiet">${m.text('builder.addRole')}</button></div>
</fieldset>`;
}

function roleRow(ctx: Ctx, role: RoleRowForm, index: number): Html {
  const { m } = ctx;
  const id = (name: string) => `role-${index}-${name}`;
  return html`<fieldset class="builder-row role-colour-${index % ROLE_COLOURS}" data-role="${role.name}">
<legend>${m.text('builder.role', { number: index + 1 })}</legend>
${textInput(ctx, id('name'), m.text('builder.roleName'), role.name, { max: 25 })}
${select(ctx, id('type'), m.text('builder.roleType'), role.type, [
  ['signer', m.text('role.type.signer')],
  ['cc', m.text('role.type.cc')],
])}
${textInput(ctx, id('order'), m.text('builder.roleOrder'), role.order, { type: 'number' })}
${select(
  ctx,
  id('verification'),
  m.text('builder.verification'),
  role.verification,
  verificationMethods.map((method): [string, string] => [method, m.text(`role.verification.${method}`)]),
)}
${check(ctx, id('locked'), m.text('builder.roleLocked'), role.locked)}
${textInput(ctx, id('recipient_name'), m.text('builder.recipientName'), role.recipient_name, { max: 120 })}
${textInput(ctx, id('recipient_email'), m.text('builder.recipientEmail'), role.recipient_email, { max: 150, type: 'email' })}
<div class="actions"><button type="submit" name="action" value="remove-role-${index}" class="button-quiet">${m.text('builder.removeRole', { number: index + 1 })}</button></div>
</fieldset>`;
}

function fieldsPart(ctx: Ctx, form: BuilderForm, pageCount: number): Html {
  const { m } = ctx;
  const signers = form.roles.map((role, index) => ({ role, index })).filter(({ role }) => role.type === 'signer');
  return html`<fieldset class="builder-fields${ctx.errors.fields ? ' field-invalid' : ''}">
<legend>${m.text('builder.fields')}</legend>
${errorOf(ctx, 'fields')}
${form.fields.length === 0 ? html`<p class="hint">${m.text('builder.noFields')}</p>` : ''}
${form.fields.map((field, index) => fieldRow(ctx, field, index, form.roles, signers.length > 0 ? signers.map(({ role }) => role) : form.roles, pageCount))}
<div class="actions"><button type="submit" name="action" value="add-field" class="button-quiet">${m.text('builder.addField')}</button></div>
</fieldset>`;
}

/** The document's pages, and the row's own when the document has no such page (a replaced PDF's fewer pages): kept, and marked. */
function pageChoices(page: string, pageCount: number): [string, string][] {
  const choices = Array.from({ length: Math.max(pageCount, 1) }, (_, index): [string, string] => [String(index + 1), String(index + 1)]);
  return choices.some(([choice]) => choice === page) || page.trim() === '' ? choices : [...choices, [page, page]];
}

/** A radio option's box: its place in points, inside the field's box. */
function optionBox(ctx: Ctx, index: number, option: number, box: OptionBoxForm & { value: string }): Html {
  const { m } = ctx;
  const id = (name: string) => `field-${index}-option-${option}-${name}`;
  return html`<fieldset class="builder-option" data-option="${option}">
<legend>${m.text('builder.optionBox', { number: option + 1, value: box.value })}</legend>
${errorOf(ctx, id('x'))}
<div class="builder-place">
${textInput({ ...ctx, errors: {} }, id('x'), m.text('builder.x'), box.x, { type: 'number', className: 'field-short' })}
${textInput({ ...ctx, errors: {} }, id('y'), m.text('builder.y'), box.y, { type: 'number', className: 'field-short' })}
${textInput({ ...ctx, errors: {} }, id('width'), m.text('builder.width'), box.width, { type: 'number', className: 'field-short' })}
${textInput({ ...ctx, errors: {} }, id('height'), m.text('builder.height'), box.height, { type: 'number', className: 'field-short' })}
</div>
</fieldset>`;
}

/** The option box app-builder.js copies for a line added to a radio group's options, its indexes stand-ins it renumbers. */
const NEW_OPTION_INDEX = 99;
function newOptionTemplate(m: AppMessages): Html {
  const ctx: Ctx = { m, errors: {}, first: undefined };
  const box = { value: '', x: '', y: '', width: '', height: '' };
  return html`<template id="builder-new-option" data-index="${NEW_ROW_INDEX}" data-option="${NEW_OPTION_INDEX}" data-legend="${m.text('builder.optionBox', { number: '{number}', value: '{value}' })}" data-hint="${m.text('builder.optionBoxHint')}">${optionBox(ctx, NEW_ROW_INDEX, NEW_OPTION_INDEX, box)}</template>`;
}

/** The row app-builder.js copies for a field placed from the palette, its index a stand-in it renumbers. */
const NEW_ROW_INDEX = 9999;
function newFieldTemplate(m: AppMessages, form: BuilderForm, pageCount: number): Html {
  const signers = form.roles.filter((role) => role.type === 'signer');
  const choices = signers.length > 0 ? signers : form.roles;
  const ctx: Ctx = { m, errors: {}, first: undefined };
  return html`<template id="builder-new-field" data-index="${NEW_ROW_INDEX}">${fieldRow(ctx, emptyField(choices[0]?.name ?? ''), NEW_ROW_INDEX, form.roles, choices, pageCount)}</template>`;
}

function fieldRow(ctx: Ctx, field: FieldRowForm, index: number, roles: RoleRowForm[], choices: RoleRowForm[], pageCount: number): Html {
  const { m } = ctx;
  const id = (name: string) => `field-${index}-${name}`;
  const colour = Math.max(
    0,
    roles.findIndex((role) => role.name === field.role),
  );
  const roleChoices: [string, string][] = choices.map((role) => [role.name, role.name]);
  if (!roleChoices.some(([name]) => name === field.role)) roleChoices.unshift([field.role, field.role]);
  return html`<fieldset class="builder-row builder-field role-colour-${colour % ROLE_COLOURS}" data-field="${index}">
<legend>${m.text('builder.field', { number: index + 1 })}</legend>
${select(
  ctx,
  id('type'),
  m.text('builder.fieldKind'),
  field.type,
  fieldTypes.map((kind): [string, string] => [kind, kindName(m, kind)]),
)}
${select(ctx, id('role'), m.text('builder.fieldRole'), field.role, roleChoices)}
${select(ctx, id('page'), m.text('builder.page'), field.page, pageChoices(field.page, pageCount))}
<div class="builder-place">
${textInput(ctx, id('x'), m.text('builder.x'), field.x, { type: 'number', className: 'field-short' })}
${textInput(ctx, id('y'), m.text('builder.y'), field.y, { type: 'number', className: 'field-short' })}
${textInput(ctx, id('width'), m.text('builder.width'), field.width, { type: 'number', className: 'field-short' })}
${textInput(ctx, id('height'), m.text('builder.height'), field.height, { type: 'number', className: 'field-short' })}
</div>
${textInput(ctx, id('label'), m.text('builder.label'), field.label, { max: 100 })}
<div class="${fieldClass(ctx, id('options'))}" data-kinds="dropdown radio">
<label for="${id('options')}">${m.text('builder.options')}</label>
<p class="hint" id="${id('options')}-hint">${m.text('builder.optionsHint')}</p>
${errorOf(ctx, id('options'))}
<textarea id="${id('options')}" name="${id('options')}" rows="3" maxlength="5100"${marks(ctx, id('options'), `${id('options')}-hint`)}>${field.options}</textarea>
</div>
<div class="builder-option-boxes" data-kinds="radio" data-option-boxes>
${field.type === 'radio' ? html`<p class="hint" id="${id('boxes')}-hint">${m.text('builder.optionBoxHint')}</p>` : ''}
${field.type === 'radio' ? radioBoxesOf(field).map((box, option) => optionBox(ctx, index, option, box)) : ''}
</div>
<div class="builder-place" data-kinds="number">
${textInput(ctx, id('min'), m.text('builder.min'), field.min, { className: 'field-short' })}
${textInput(ctx, id('max'), m.text('builder.max'), field.max, { className: 'field-short' })}
</div>
${check(ctx, id('required'), m.text('builder.required'), field.required)}
<div class="actions"><button type="submit" name="action" value="remove-field-${index}" class="button-quiet">${m.text('builder.removeField', { number: index + 1 })}</button></div>
</fieldset>`;
}
