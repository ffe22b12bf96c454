/**
 * The templates pages: the company's list, one template (its settings, roles, fields and
 * versions), the upload that starts the builder, and the refusal for a role that may not build.
 */
import { html } from 'hono/html';
import type { CompanyTemplate } from '../../domain/templates/company-templates.js';
import type { TemplateDetail } from '../../domain/templates/get-template.js';
import type { TemplateRole } from '../../domain/templates/template-record.js';
import type { TemplateVersionSummary } from '../../domain/templates/template-versions.js';
import type { AppMessageKey, AppMessages } from '../../i18n/app-messages.js';
import { languageNames } from '../../i18n/languages.js';
import { type Html, layout, noticePage, type Shell } from './layout.js';

const hidden = (shell: Shell) => html`<input type="hidden" name="form_token" value="${shell.formToken}">`;
export const fieldError = (m: AppMessages, id: string, message: string) =>
  html`<p class="field-error" id="${id}"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${message}</p>`;

export function templatesRefusedPage(m: AppMessages, shell: Shell): Html {
  return noticePage({
    m,
    shell: { ...shell, current: 'templates' },
    title: m.text('templates.refused.title'),
    lead: m.text('templates.refused.lead'),
    tone: 'warning',
  });
}

export function templatesListPage(
  m: AppMessages,
  shell: Shell,
  options: { templates: CompanyTemplate[]; more: boolean; shown: number; mayManage: boolean; archived?: boolean },
): Html {
  return layout({
    m,
    title: m.text('templates.title'),
    shell,
    main: html`<section class="panel panel-wide" aria-labelledby="templates-title">
${options.archived ? html`<p class="status" role="status">${m.text('templates.archived')}</p>` : ''}
<h1 id="templates-title">${m.text('templates.title')}</h1>
<p>${m.text('templates.lead')}</p>
${options.mayManage ? html`<p><a class="button-link" href="/app/templates/new">${m.text('templates.new')}</a></p>` : ''}
${
  options.templates.length === 0
    ? html`<p>${m.text('templates.none')}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="templates-title" tabindex="0">
<table class="list list-stacking">
<caption class="visually-hidden">${m.text('templates.caption')}</caption>
<thead><tr><th scope="col">${m.text('templates.name')}</th><th scope="col">${m.text('templates.roles')}</th><th scope="col">${m.text('templates.changed')}</th><th scope="col">${m.text('templates.by')}</th><th scope="col">${m.text('templates.sent')}</th></tr></thead>
<tbody>
${options.templates.map(
  (template) => html`<tr>
<th scope="row"><a href="/app/templates/${template.id}">${template.name}</a></th>
<td data-label="${m.text('templates.roles')}">${template.roles.map((role) => role.name).join(', ')}</td>
<td data-label="${m.text('templates.changed')}">${m.date(new Date(template.updated_at), { withTime: true })}</td>
<td data-label="${m.text('templates.by')}">${template.changedBy ?? m.text('templates.byUnknown')}</td>
<td data-label="${m.text('templates.sent')}">${template.envelopesSent}</td>
</tr>`,
)}
</tbody>
</table>
</div>`
}
${options.more ? html`<p class="hint">${m.text('templates.more', { count: options.shown })}</p>` : ''}
</section>`,
  });
}

const days = (m: AppMessages, count: number) => m.text('template.expiryDays', { days: count });

function roleText(m: AppMessages, role: TemplateRole): Html {
  return html`<tr>
<th scope="row">${role.name}</th>
<td data-label="${m.text('builder.roleType')}">${m.text(`role.type.${role.type}`)}</td>
<td data-label="${m.text('builder.roleOrder')}">${role.order}</td>
<td data-label="${m.text('builder.roleLocked')}">${role.recipient ? m.text('role.lockedTo', { name: role.recipient.name, email: role.recipient.email }) : m.text('template.no')}</td>
<td data-label="${m.text('builder.verification')}">${m.text(`role.verification.${role.verification}`)}</td>
</tr>`;
}

/** A field kind's name, also for kinds the catalogue does not know yet (shown as their code). */
export const kindName = (m: AppMessages, kind: string) => (`field.kind.${kind}` in kindKeys ? m.text(`field.kind.${kind}` as AppMessageKey) : kind);
const kindKeys = Object.fromEntries(
  ['signature', 'initials', 'date_signed', 'text', 'checkbox', 'name', 'email', 'date', 'number', 'dropdown', 'radio'].map((kind) => [
    `field.kind.${kind}`,
    true,
  ]),
);

export function templatePage(
  m: AppMessages,
  shell: Shell,
  options: { template: TemplateDetail; mayManage: boolean; saved?: boolean; versions: TemplateVersionSummary[] },
): Html {
  const { template } = options;
  return layout({
    m,
    title: template.name,
    shell,
    main: html`<section class="panel panel-wide" aria-labelledby="template-title">
<p><a href="/app/templates">${m.text('templates.back')}</a></p>
${options.saved ? html`<p class="status" role="status">${m.text('templates.saved', { name: template.name })}</p>` : ''}
<h1 id="template-title">${template.name}</h1>
${
  options.mayManage
    ? html`<p class="actions">${template.document ? html`<a class="button-link" href="/app/templates/${template.id}/edit">${m.text('template.edit')}</a>` : ''}
<a href="/app/templates/${template.id}/archive">${m.text('template.archive')}</a></p>`
    : ''
}
<h2>${m.text('template.settings')}</h2>
<dl class="details">
<div><dt>${m.text('template.document')}</dt><dd>${template.document ? html`${template.document.file_name} (${m.text('template.pages', { count: template.document.page_count })})` : m.text('template.none')}</dd></div>
<div><dt>${m.text('template.subject')}</dt><dd>${template.email_subject ?? m.text('template.none')}</dd></div>
<div><dt>${m.text('template.message')}</dt><dd>${template.email_message ?? m.text('template.none')}</dd></div>
<div><dt>${m.text('template.expiry')}</dt><dd>${template.expiry_days === null ? m.text('template.none') : days(m, template.expiry_days)}</dd></div>
<div><dt>${m.text('template.reminders')}</dt><dd>${template.reminders ? m.text('template.remindersEvery', { first: template.reminders.first_after_days, every: template.reminders.every_days }) : m.text('template.none')}</dd></div>
<div><dt>${m.text('template.order')}</dt><dd>${m.text(`template.order.${template.signing_order}`)}</dd></div>
<div><dt>${m.text('template.share')}</dt><dd>${m.text(template.share_signing_links ? 'template.yes' : 'template.no')}</dd></div>
<div><dt>${m.text('template.language')}</dt><dd>${template.language ? languageNames[template.language] : m.text('template.languageCompany')}</dd></div>
<div><dt>${m.text('templates.changed')}</dt><dd>${m.date(new Date(template.updated_at), { withTime: true })}</dd></div>
</dl>
<h2 id="roles-title">${m.text('template.rolesTitle')}</h2>
<div class="table-scroll" role="region" aria-labelledby="roles-title" tabindex="0">
<table class="list list-stacking">
<thead><tr><th scope="col">${m.text('builder.roleName')}</th><th scope="col">${m.text('builder.roleType')}</th><th scope="col">${m.text('builder.roleOrder')}</th><th scope="col">${m.text('builder.roleLocked')}</th><th scope="col">${m.text('builder.verification')}</th></tr></thead>
<tbody>${template.roles.map((role) => roleText(m, role))}</tbody>
</table>
</div>
<h2 id="fields-title">${m.text('template.fieldsTitle')}</h2>
${
  template.fields.length === 0
    ? html`<p>${m.text('template.noFields')}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="fields-title" tabindex="0">
<table class="list list-stacking">
<thead><tr><th scope="col">${m.text('builder.fieldKind')}</th><th scope="col">${m.text('builder.fieldRole')}</th><th scope="col">${m.text('builder.page')}</th><th scope="col">${m.text('builder.label')}</th><th scope="col">${m.text('builder.required')}</th></tr></thead>
<tbody>${template.fields.map(
        (field) => html`<tr>
<th scope="row">${kindName(m, field.type)}</th>
<td data-label="${m.text('builder.fieldRole')}">${field.role}</td>
<td data-label="${m.text('builder.page')}">${m.text('field.place', { page: field.page, x: field.x, y: field.y, width: field.width, height: field.height })}</td>
<td data-label="${m.text('builder.label')}">${field.label ?? ''}</td>
<td data-label="${m.text('builder.required')}">${m.text(field.required ? 'template.yes' : 'template.no')}</td>
</tr>`,
      )}</tbody>
</table>
</div>`
}
${versionsPart(m, options.versions)}
</section>`,
  });
}

function versionsPart(m: AppMessages, versions: TemplateVersionSummary[]): Html {
  const by = (version: TemplateVersionSummary) =>
    version.saved_by.type === 'user' ? (version.saved_by.email ?? m.text('templates.byUnknown')) : m.text(`template.savedBy.${version.saved_by.type}`);
  return html`<h2 id="versions-title">${m.text('template.versions')}</h2>
<div class="table-scroll" role="region" aria-labelledby="versions-title" tabindex="0">
<table class="list list-stacking">
<thead><tr><th scope="col">${m.text('template.version')}</th><th scope="col">${m.text('templates.name')}</th><th scope="col">${m.text('template.subject')}</th><th scope="col">${m.text('template.language')}</th><th scope="col">${m.text('template.versionSaved')}</th><th scope="col">${m.text('template.versionBy')}</th><th scope="col">${m.text('template.versionSize')}</th></tr></thead>
<tbody>${versions.map(
    (version) => html`<tr>
<th scope="row">${version.version}</th>
<td data-label="${m.text('templates.name')}">${version.name}</td>
<td data-label="${m.text('template.subject')}">${version.email_subject ?? m.text('template.none')}</td>
<td data-label="${m.text('template.language')}">${version.language ? languageNames[version.language] : m.text('template.languageCompany')}</td>
<td data-label="${m.text('template.versionSaved')}">${m.date(new Date(version.saved_at), { withTime: true })}</td>
<td data-label="${m.text('template.versionBy')}">${by(version)}</td>
<td data-label="${m.text('template.versionSize')}">${m.text('template.versionCounts', { roles: version.role_count, fields: version.field_count })}</td>
</tr>`,
  )}</tbody>
</table>
</div>`;
}

export function archivePage(m: AppMessages, shell: Shell, template: { id: string; name: string }): Html {
  const title = m.text('archive.title', { name: template.name });
  return layout({
    m,
    title,
    shell,
    main: html`<section class="panel" aria-labelledby="archive-title">
<h1 id="archive-title">${title}</h1>
<p>${m.text('archive.lead')}</p>
<form method="post" action="/app/templates/${template.id}/archive">
${hidden(shell)}
<div class="actions">
<button type="submit" class="button-danger">${m.text('archive.submit')}</button>
<a href="/app/templates/${template.id}">${m.text('archive.cancel')}</a>
</div>
</form>
</section>`,
  });
}

export function uploadPage(m: AppMessages, shell: Shell, options: { limit: string; error?: 'missing' | 'notPdf' | 'tooLarge' }): Html {
  const { error } = options;
  return layout({
    m,
    title: m.text('upload.title'),
    shell,
    main: html`<section class="panel" aria-labelledby="upload-title">
<p><a href="/app/templates">${m.text('templates.back')}</a></p>
<h1 id="upload-title">${m.text('upload.title')}</h1>
<p>${m.text('upload.lead')}</p>
<form method="post" action="/app/templates/new" enctype="multipart/form-data" novalidate>
${hidden(shell)}
<div class="field${error ? ' field-invalid' : ''}">
<label for="document">${m.text('upload.file')}</label>
<p class="hint" id="document-hint">${m.text('upload.hint', { limit: options.limit })}</p>
${error ? fieldError(m, 'document-error', m.text(`upload.${error}`, { limit: options.limit })) : ''}
<input id="document" name="document" type="file" accept="application/pdf,.pdf" required aria-describedby="${error ? 'document-error ' : ''}document-hint"${error ? html` aria-invalid="true" autofocus` : ''}>
</div>
<div class="actions"><button type="submit">${m.text('upload.submit')}</button></div>
</form>
</section>`,
  });
}
