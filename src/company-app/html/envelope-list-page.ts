/**
 * The company's envelopes (`/app/envelopes`): the filters as a GET form (they work without script
 * and stay in the address), the page of envelopes newest first, and the pages before and after.
 */
import { html } from 'hono/html';
import type { EnvelopeListEntry } from '../../domain/envelopes/company-envelopes.js';
import { envelopeStates } from '../../domain/envelopes/company-envelopes.js';
import type { Page } from '../../domain/shared/pagination.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type EnvelopeQuery, type EnvelopeQueryField, envelopeListHref, SEARCH_MAX } from '../envelope-query.js';
import { envelopeStateText, stateBadge, timeOf } from './envelope-format.js';
import { type Html, layout, type Shell } from './layout.js';

export type FilterChoices = { templates: { id: string; name: string }[]; senders: { id: string; name: string; email: string }[] };

const option = (value: string, label: string, chosen: string | undefined) =>
  html`<option value="${value}"${value === (chosen ?? '') ? html` selected` : ''}>${label}</option>`;

export function envelopeListPage(
  m: AppMessages,
  shell: Shell,
  options: { query: EnvelopeQuery; choices: FilterChoices; page: Page<EnvelopeListEntry> | null },
): Html {
  const { query, choices, page } = options;
  const { echo, problems } = query;
  const invalid = (field: EnvelopeQueryField) => problems.includes(field);
  const fieldClass = (field: EnvelopeQueryField) => (invalid(field) ? 'field field-invalid' : 'field');
  const described = (field: EnvelopeQueryField) => (invalid(field) ? html` aria-invalid="true" aria-describedby="filters-error"` : '');
  return layout({
    m,
    title: m.text('envelopes.title'),
    shell: { ...shell, current: 'envelopes' },
    main: html`<section class="panel panel-wide" aria-labelledby="envelopes-title">
<h1 id="envelopes-title">${m.text('envelopes.title')}</h1>
<form method="get" action="/app/envelopes" class="filters" role="search" aria-label="${m.text('envelopes.filters')}" novalidate>
${
  problems.length > 0
    ? html`<p class="field-error" id="filters-error" role="alert"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${m.text('envelopes.filtersInvalid')}</p>`
    : ''
}
<div class="${fieldClass('q')} filter-search">
<label for="q">${m.text('envelopes.search')}</label>
<input id="q" name="q" type="search" maxlength="${SEARCH_MAX}" value="${echo.q ?? ''}"${described('q')}>
</div>
<div class="${fieldClass('state')}">
<label for="state">${m.text('envelopes.state')}</label>
<select id="state" name="state"${described('state')}>${option('', m.text('envelopes.any'), echo.state)}${envelopeStates.map((state) => option(state, envelopeStateText(m, state), echo.state))}</select>
</div>
<div class="${fieldClass('template')}">
<label for="template">${m.text('envelopes.template')}</label>
<select id="template" name="template"${described('template')}>${option('', m.text('envelopes.any'), echo.template)}${choices.templates.map((t) => option(t.id, t.name, echo.template))}</select>
</div>
<div class="${fieldClass('sender')}">
<label for="sender">${m.text('envelopes.sender')}</label>
<select id="sender" name="sender"${described('sender')}>${option('', m.text('envelopes.any'), echo.sender)}${choices.senders.map((s) => option(s.id, `${s.name} (${s.email})`, echo.sender))}</select>
</div>
<div class="${fieldClass('from')}">
<label for="from">${m.text('envelopes.sentFrom')}</label>
<input id="from" name="from" type="date" value="${echo.from ?? ''}"${described('from')}>
</div>
<div class="${fieldClass('to')}">
<label for="to">${m.text('envelopes.sentTo')}</label>
<input id="to" name="to" type="date" value="${echo.to ?? ''}"${described('to')}>
</div>
${echo.per_page && !invalid('per_page') ? html`<input type="hidden" name="per_page" value="${echo.per_page}">` : ''}
<div class="filter-actions">
<button type="submit">${m.text('envelopes.apply')}</button>
<a href="/app/envelopes">${m.text('envelopes.clear')}</a>
</div>
<p class="hint">${m.text('envelopes.datesUtc')}</p>
</form>
${page ? results(m, query, page) : ''}
</section>`,
  });
}

function results(m: AppMessages, query: EnvelopeQuery, page: Page<EnvelopeListEntry>): Html {
  const { total, total_pages } = page.pagination;
  if (page.data.length === 0) {
    return html`<p class="status" role="status">${m.text(total > 0 ? 'envelopes.pastEnd' : 'envelopes.none')}</p>
${total > 0 ? html`<p><a href="${envelopeListHref(query.echo, 1)}">${m.text('envelopes.firstPage')}</a></p>` : ''}`;
  }
  return html`<p class="status" role="status">${m.text('envelopes.count', { total })}</p>
<div class="table-scroll" role="region" aria-labelledby="envelopes-caption" tabindex="0">
<table class="list list-stacking">
<caption id="envelopes-caption" class="visually-hidden">${m.text('envelopes.caption', { page: query.page, pages: total_pages })}</caption>
<thead><tr>
<th scope="col">${m.text('envelopes.column.title')}</th>
<th scope="col">${m.text('envelopes.column.template')}</th>
<th scope="col">${m.text('envelopes.column.sender')}</th>
<th scope="col">${m.text('envelopes.column.state')}</th>
<th scope="col">${m.text('envelopes.column.progress')}</th>
<th scope="col">${m.text('envelopes.column.sent')}</th>
<th scope="col">${m.text('envelopes.column.completed')}</th>
</tr></thead>
<tbody>
${page.data.map(
  (e) => html`<tr>
<th scope="row"><a href="/app/envelopes/${e.id}">${e.title}</a></th>
<td data-label="${m.text('envelopes.column.template')}">${e.template ?? ''}</td>
<td data-label="${m.text('envelopes.column.sender')}">${e.sender.name ?? e.sender.email}</td>
<td data-label="${m.text('envelopes.column.state')}">${stateBadge(m, e.state)}</td>
<td data-label="${m.text('envelopes.column.progress')}">${m.text('envelopes.progress', { signed: e.signed, signers: e.signers })}</td>
<td data-label="${m.text('envelopes.column.sent')}">${timeOf(e.sentAt)}</td>
<td data-label="${m.text('envelopes.column.completed')}">${timeOf(e.completedAt, '–')}</td>
</tr>`,
)}
</tbody>
</table>
</div>
${
  total_pages > 1
    ? html`<nav class="pager" aria-label="${m.text('envelopes.pages')}">
${query.page > 1 ? html`<a href="${envelopeListHref(query.echo, query.page - 1)}" rel="prev">${m.text('envelopes.previous')}</a>` : ''}
<span>${m.text('envelopes.pageOf', { page: query.page, pages: total_pages })}</span>
${query.page < total_pages ? html`<a href="${envelopeListHref(query.echo, query.page + 1)}" rel="next">${m.text('envelopes.next')}</a>` : ''}
</nav>`
    : ''
}`;
}
