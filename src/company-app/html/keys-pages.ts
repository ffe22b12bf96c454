/**
 * The API keys pages: the company's keys, the form that makes one, the page that shows a new key
 * (its only showing: it is never stored, so never shown again), the confirmations of rotate and
 * revoke, and the refusal for a role that may not manage keys. Every form carries its `form_token`.
 */
import { html } from 'hono/html';
import type { CompanyApiKey } from '../../domain/auth/company-api-keys.js';
import { type Scope, scopes } from '../../domain/auth/scopes.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type Html, layout, noticePage, type Shell } from './layout.js';

const framed = (shell: Shell): Shell => ({ ...shell, current: 'keys' });
const hidden = (shell: Shell) => html`<input type="hidden" name="form_token" value="${shell.formToken}">`;
const keyName = (m: AppMessages, key: { name: string | null }) => key.name ?? m.text('keys.unnamed');
const fieldError = (m: AppMessages, id: string, message: string) =>
  html`<p class="field-error" id="${id}"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${message}</p>`;

export function keysListPage(m: AppMessages, shell: Shell, options: { keys: CompanyApiKey[]; shown: number; revoked?: string | undefined }): Html {
  const keys = options.keys.slice(0, options.shown);
  return layout({
    m,
    title: m.text('keys.title'),
    shell: framed(shell),
    main: html`<section class="panel panel-wide" aria-labelledby="keys-title">
${options.revoked !== undefined ? html`<p class="status" role="status">${m.text('keys.revokedNotice', { name: options.revoked })}</p>` : ''}
<h1 id="keys-title">${m.text('keys.title')}</h1>
<p>${m.text('keys.lead')}</p>
<p><a class="button-link" href="/app/keys/new">${m.text('keys.create')}</a></p>
${
  keys.length === 0
    ? html`<p>${m.text('keys.none')}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="keys-title" tabindex="0">
<table class="list list-stacking">
<thead><tr><th scope="col">${m.text('keys.name')}</th><th scope="col">${m.text('keys.prefix')}</th><th scope="col">${m.text('keys.owner')}</th><th scope="col">${m.text('keys.scopes')}</th><th scope="col">${m.text('keys.created')}</th><th scope="col">${m.text('keys.lastUsed')}</th><th scope="col">${m.text('keys.status')}</th><th scope="col"><span class="visually-hidden">${m.text('keys.actions')}</span></th></tr></thead>
<tbody>
${keys.map((key) => keyRow(m, key))}
</tbody>
</table>
</div>`
}
${options.keys.length > options.shown ? html`<p class="hint">${m.text('keys.more', { count: options.shown })}</p>` : ''}
</section>`,
  });
}

function keyRow(m: AppMessages, key: CompanyApiKey): Html {
  const name = keyName(m, key);
  return html`<tr>
<th scope="row">${name}</th>
<td data-label="${m.text('keys.prefix')}"><code>${key.prefix}…</code></td>
<td data-label="${m.text('keys.owner')}">${key.owner.name}<br><span class="hint">${key.owner.email}</span></td>
<td data-label="${m.text('keys.scopes')}"><ul class="scope-list">${key.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul></td>
<td data-label="${m.text('keys.created')}">${m.date(key.createdAt, { withTime: true })}</td>
<td data-label="${m.text('keys.lastUsed')}">${key.lastUsed ? html`${m.date(key.lastUsed.at, { withTime: true })}${key.lastUsed.client ? html`<br><span class="hint">${m.text('keys.from', { client: key.lastUsed.client })}</span>` : ''}` : m.text('keys.never')}</td>
<td data-label="${m.text('keys.status')}"><span class="key-status key-${key.status}">${m.text(`keys.status.${key.status}`)}</span></td>
<td class="key-actions">${
    key.status === 'active'
      ? html`<a href="/app/keys/${key.id}/rotate" aria-label="${m.text('keys.rotateNamed', { name })}">${m.text('keys.rotate')}</a>
<a href="/app/keys/${key.id}/revoke" aria-label="${m.text('keys.revokeNamed', { name })}">${m.text('keys.revoke')}</a>`
      : ''
  }</td>
</tr>`;
}

export type NewKeyForm = { name: string; scopes: readonly string[]; owner: string };
export type NewKeyErrors = Partial<Record<keyof NewKeyForm, true>>;
export type KeyOwner = { id: string; name: string; email: string };

export function newKeyPage(m: AppMessages, shell: Shell, options: { owners: KeyOwner[]; form?: NewKeyForm; errors?: NewKeyErrors }): Html {
  const form = options.form ?? { name: '', scopes: [], owner: shell.session.user.id };
  const errors = options.errors ?? {};
  const first = errors.name ? 'name' : errors.scopes ? 'scopes' : errors.owner ? 'owner' : undefined;
  return layout({
    m,
    title: m.text('newKey.title'),
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="new-key-title">
<h1 id="new-key-title">${m.text('newKey.title')}</h1>
<p>${m.text('newKey.lead')}</p>
<form method="post" action="/app/keys" novalidate>
${hidden(shell)}
<div class="field${errors.name ? ' field-invalid' : ''}">
<label for="name">${m.text('newKey.name')}</label>
<p class="hint" id="name-hint">${m.text('newKey.nameHint')}</p>
${errors.name ? fieldError(m, 'name-error', m.text('newKey.nameInvalid')) : ''}
<input id="name" name="name" type="text" required maxlength="100" autocomplete="off" value="${form.name}" aria-describedby="${errors.name ? 'name-error ' : ''}name-hint"${errors.name ? html` aria-invalid="true"` : ''}${first === 'name' ? html` autofocus` : ''}>
</div>
<fieldset class="field${errors.scopes ? ' field-invalid' : ''}"${errors.scopes ? html` aria-describedby="scopes-error"` : ''}>
<legend>${m.text('newKey.scopes')}</legend>
<p class="hint">${m.text('newKey.scopesHint')}</p>
${errors.scopes ? fieldError(m, 'scopes-error', m.text('newKey.scopesInvalid')) : ''}
${scopes.map(
  (
    scope,
    index,
  ) => html`<div class="check"><input type="checkbox" id="scope-${index}" name="scope" value="${scope}"${form.scopes.includes(scope) ? ' checked' : ''}${first === 'scopes' && index === 0 ? html` autofocus` : ''}>
<label for="scope-${index}"><code>${scope}</code> <span class="hint">${m.text(`scope.${scope}`)}</span></label></div>`,
)}
</fieldset>
<div class="field${errors.owner ? ' field-invalid' : ''}">
<label for="owner">${m.text('newKey.owner')}</label>
<p class="hint" id="owner-hint">${m.text('newKey.ownerHint')}</p>
${errors.owner ? fieldError(m, 'owner-error', m.text('newKey.ownerInvalid')) : ''}
<select id="owner" name="owner" aria-describedby="${errors.owner ? 'owner-error ' : ''}owner-hint"${errors.owner ? html` aria-invalid="true"` : ''}${first === 'owner' ? html` autofocus` : ''}>
${options.owners.map((owner) => html`<option value="${owner.id}"${owner.id === form.owner ? ' selected' : ''}>${owner.name} (${owner.email})</option>`)}
</select>
</div>
<div class="actions">
<button type="submit">${m.text('newKey.submit')}</button>
<a href="/app/keys">${m.text('keys.cancel')}</a>
</div>
</form>
</section>`,
  });
}

/** The one page that ever shows the plain key: after it is made, or after its rotation. */
export function keyShownPage(m: AppMessages, shell: Shell, options: { key: string; name: string | null; rotated: boolean }): Html {
  const title = m.text(options.rotated ? 'keyShown.rotatedTitle' : 'keyShown.title');
  return layout({
    m,
    title,
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="key-shown-title">
<h1 id="key-shown-title">${title}</h1>
<p class="lead">${m.html('keyShown.lead', { name: keyName(m, options) })}</p>
<div class="field">
<label for="new-key">${m.text('keyShown.key')}</label>
<input id="new-key" class="key-value" type="text" readonly value="${options.key}" spellcheck="false" autocomplete="off" aria-describedby="key-once">
</div>
<p class="copy-row"><button type="button" id="copy-key" data-copies="new-key" hidden>${m.text('keyShown.copy')}</button> <span id="copy-status" role="status" data-copied="${m.text('keyShown.copied')}" data-failed="${m.text('keyShown.copyFailed')}"></span></p>
<p class="key-warning" id="key-once">${m.text('keyShown.once')}</p>
<p><a href="/app/keys">${m.text('keyShown.done')}</a></p>
<script type="module" src="/static/app-keys.js"></script>
</section>`,
  });
}

/** The step before rotating or revoking: what it does, and the button that does it. */
export function confirmKeyPage(m: AppMessages, shell: Shell, options: { key: CompanyApiKey; action: 'rotate' | 'revoke' }): Html {
  const { key, action } = options;
  const title = m.text(`confirm.${action}.title`, { name: keyName(m, key) });
  return layout({
    m,
    title,
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="confirm-title">
<h1 id="confirm-title">${title}</h1>
<p class="lead">${m.html(`confirm.${action}.lead`, { prefix: `${key.prefix}…` })}</p>
<form method="post" action="/app/keys/${key.id}/${action}">
${hidden(shell)}
<div class="actions">
<button type="submit"${action === 'revoke' ? html` class="button-danger"` : ''}>${m.text(`confirm.${action}.submit`)}</button>
<a href="/app/keys">${m.text('keys.cancel')}</a>
</div>
</form>
</section>`,
  });
}

export const keysRefusedPage = (m: AppMessages, shell: Shell): Html =>
  noticePage({ m, title: m.text('keys.refused.title'), lead: m.text('keys.refused.lead'), tone: 'warning', shell });

export const isScope = (value: string): value is Scope => (scopes as readonly string[]).includes(value);
