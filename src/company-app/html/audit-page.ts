/**
 * The company's audit log (`/app/audit`): the filters as a GET form (they work without script and
 * stay in the address), one row per thing done, newest first, as a sentence with its time (UTC)
 * and the client address when one was recorded, and the links to newer and older entries.
 */
import { html } from 'hono/html';
import { type AuditPage, type AuditPerson, auditGroups } from '../../domain/audit/company-audit-log.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type AuditListQuery, auditHref } from '../audit-query.js';
import { auditSentence } from './audit-sentence.js';
import { timeOf } from './envelope-format.js';
import { type Html, layout, noticePage, type Shell } from './layout.js';

const option = (value: string, label: string, chosen: string | undefined) =>
  html`<option value="${value}"${value === (chosen ?? '') ? html` selected` : ''}>${label}</option>`;

const clientOf = (data: Record<string, unknown>) => (typeof data.ip === 'string' ? data.ip : typeof data.client_ip === 'string' ? data.client_ip : '');

export function auditPage(m: AppMessages, shell: Shell, options: { list: AuditListQuery; people: AuditPerson[]; page: AuditPage | null }): Html {
  const { list, people, page } = options;
  const { echo, problems } = list;
  const marked = (field: 'group' | 'user') => problems.includes(field);
  const described = (field: 'group' | 'user') => (marked(field) ? html` aria-invalid="true" aria-describedby="audit-filters-error"` : '');
  return layout({
    m,
    title: m.text('audit.title'),
    shell: { ...shell, current: 'audit' },
    main: html`<section class="panel panel-wide" aria-labelledby="audit-title">
<h1 id="audit-title">${m.text('audit.title')}</h1>
<p>${m.text('audit.lead')}</p>
<form method="get" action="/app/audit" class="filters" role="search" aria-label="${m.text('audit.filters')}" novalidate>
${
  problems.length > 0
    ? html`<p class="field-error" id="audit-filters-error" role="alert"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${m.text('audit.invalid')}</p>`
    : ''
}
<div class="field${marked('group') ? ' field-invalid' : ''}">
<label for="group">${m.text('audit.group')}</label>
<select id="group" name="group"${described('group')}>${option('', m.text('audit.group.any'), echo.group)}${auditGroups.map((group) => option(group, m.text(`audit.group.${group}`), echo.group))}</select>
</div>
<div class="field${marked('user') ? ' field-invalid' : ''}">
<label for="user">${m.text('audit.person')}</label>
<select id="user" name="user"${described('user')}>${option('', m.text('audit.person.any'), echo.user)}${people.map((p) => option(p.id, `${p.name} (${p.email})`, echo.user))}</select>
</div>
<div class="filter-actions">
<button type="submit">${m.text('audit.apply')}</button>
<a href="/app/audit">${m.text('audit.clear')}</a>
</div>
<p class="hint">${m.text('audit.utc')}</p>
</form>
${page ? entriesOf(m, list, page) : ''}
</section>`,
  });
}

function entriesOf(m: AppMessages, list: AuditListQuery, page: AuditPage): Html {
  const { echo, query } = list;
  const cursor = query.before !== undefined || query.after !== undefined;
  if (page.entries.length === 0) {
    const none = cursor ? 'audit.pastEnd' : echo.group || echo.user ? 'audit.noneFiltered' : 'audit.none';
    return html`<p class="status" role="status">${m.text(none)}</p>
${cursor ? html`<p><a href="${auditHref(echo)}">${m.text('audit.newest')}</a></p>` : ''}`;
  }
  return html`<div class="table-scroll" role="region" aria-labelledby="audit-caption" tabindex="0">
<table class="list list-stacking audit-list">
<caption id="audit-caption" class="visually-hidden">${m.text('audit.caption')}</caption>
<thead><tr>
<th scope="col">${m.text('audit.column.what')}</th>
<th scope="col">${m.text('audit.column.when')}</th>
<th scope="col">${m.text('audit.column.client')}</th>
</tr></thead>
<tbody>
${page.entries.map(
  (entry) => html`<tr data-kind="${entry.kind}">
<th scope="row">${auditSentence(m, entry)}</th>
<td data-label="${m.text('audit.column.when')}">${timeOf(entry.at)}</td>
<td data-label="${m.text('audit.column.client')}">${clientOf(entry.data)}</td>
</tr>`,
)}
</tbody>
</table>
</div>
${
  page.newer !== null || page.older !== null
    ? html`<nav class="pager" aria-label="${m.text('audit.pages')}">
${page.newer !== null ? html`<a href="${auditHref(echo)}">${m.text('audit.newest')}</a> <a href="${auditHref(echo, { after: page.newer })}" rel="prev">${m.text('audit.newer')}</a>` : ''}
${page.older !== null ? html`<a href="${auditHref(echo, { before: page.older })}" rel="next">${m.text('audit.older')}</a>` : ''}
</nav>`
    : ''
}`;
}

export const auditRefusedPage = (m: AppMessages, shell: Shell): Html =>
  noticePage({ m, title: m.text('audit.refused.title'), lead: m.text('audit.refused.lead'), tone: 'warning', shell });
