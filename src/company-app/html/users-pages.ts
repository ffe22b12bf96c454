/**
 * The users pages: the company's users, the form that invites a person, and the refusals (a role
 * that may not manage users; an administrator acting on the owner role). Every form carries its
 * `form_token`. One user's page is user-page.ts.
 */
import { html } from 'hono/html';
import { type UserRole, userRoles } from '../../data/schema.js';
import type { CompanyUser } from '../../domain/users/company-users.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type Html, layout, noticePage, type Shell } from './layout.js';

export const framed = (shell: Shell): Shell => ({ ...shell, current: 'users' });
export const hidden = (shell: Shell) => html`<input type="hidden" name="form_token" value="${shell.formToken}">`;
export const fieldError = (m: AppMessages, id: string, message: string) =>
  html`<p class="field-error" id="${id}"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${message}</p>`;
export const statusBadge = (m: AppMessages, active: boolean) =>
  html`<span class="badge ${active ? 'badge-active' : 'badge-deactivated'}">${m.text(active ? 'users.status.active' : 'users.status.deactivated')}</span>`;

/** The roles `actor` may give: an administrator may not give the owner role (owner-rules.ts). */
export const rolesGivenBy = (actor: UserRole): readonly UserRole[] => (actor === 'owner' ? userRoles : userRoles.filter((role) => role !== 'owner'));

export function usersListPage(m: AppMessages, shell: Shell, options: { users: CompanyUser[]; shown: number }): Html {
  const users = options.users.slice(0, options.shown);
  return layout({
    m,
    title: m.text('users.title'),
    shell: framed(shell),
    main: html`<section class="panel panel-wide" aria-labelledby="users-title">
<h1 id="users-title">${m.text('users.title')}</h1>
<p>${m.text('users.lead')}</p>
<p><a class="button-link" href="/app/users/new">${m.text('users.invite')}</a></p>
<div class="table-scroll" role="region" aria-labelledby="users-caption" tabindex="0">
<table class="list list-stacking">
<caption id="users-caption" class="visually-hidden">${m.text('users.caption')}</caption>
<thead><tr><th scope="col">${m.text('users.name')}</th><th scope="col">${m.text('users.email')}</th><th scope="col">${m.text('users.role')}</th><th scope="col">${m.text('users.seat')}</th><th scope="col">${m.text('users.status')}</th><th scope="col">${m.text('users.created')}</th></tr></thead>
<tbody>
${users.map(
  (user) => html`<tr>
<th scope="row"><a href="/app/users/${user.id}">${user.name}</a>${user.id === shell.session.user.id ? html` <span class="hint">${m.text('users.you')}</span>` : ''}</th>
<td data-label="${m.text('users.email')}">${user.email}</td>
<td data-label="${m.text('users.role')}">${m.text(`role.${user.role}`)}</td>
<td data-label="${m.text('users.seat')}">${m.text(user.esignSeat ? 'users.seat.yes' : 'users.seat.no')}</td>
<td data-label="${m.text('users.status')}">${statusBadge(m, user.active)}</td>
<td data-label="${m.text('users.created')}">${m.date(user.createdAt)}</td>
</tr>`,
)}
</tbody>
</table>
</div>
${options.users.length > options.shown ? html`<p class="hint">${m.text('users.more', { count: options.shown })}</p>` : ''}
</section>`,
  });
}

export type InviteForm = { name: string; email: string; role: string; seat: boolean };
export type InviteErrors = Partial<Record<'name' | 'email' | 'role', 'invalid' | 'taken'>>;

export function invitePage(m: AppMessages, shell: Shell, options: { minutes: number; form?: InviteForm; errors?: InviteErrors }): Html {
  const form = options.form ?? { name: '', email: '', role: 'member', seat: false };
  const errors = options.errors ?? {};
  const first = (['name', 'email', 'role'] as const).find((field) => errors[field]);
  const invalid = (field: 'name' | 'email' | 'role') => (errors[field] ? html` aria-invalid="true"` : '');
  const focus = (field: 'name' | 'email' | 'role') => (first === field ? html` autofocus` : '');
  return layout({
    m,
    title: m.text('invite.title'),
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="invite-title">
<h1 id="invite-title">${m.text('invite.title')}</h1>
<p>${m.text('invite.lead', { company: shell.session.user.companyName, minutes: options.minutes })}</p>
<form method="post" action="/app/users" novalidate>
${hidden(shell)}
<div class="field${errors.name ? ' field-invalid' : ''}">
<label for="name">${m.text('invite.name')}</label>
<p class="hint" id="name-hint">${m.text('invite.nameHint')}</p>
${errors.name ? fieldError(m, 'name-error', m.text('invite.nameInvalid')) : ''}
<input id="name" name="name" type="text" required maxlength="120" autocomplete="off" value="${form.name}" aria-describedby="${errors.name ? 'name-error ' : ''}name-hint"${invalid('name')}${focus('name')}>
</div>
<div class="field${errors.email ? ' field-invalid' : ''}">
<label for="email">${m.text('invite.email')}</label>
${errors.email ? fieldError(m, 'email-error', m.text(errors.email === 'taken' ? 'invite.emailTaken' : 'invite.emailInvalid')) : ''}
<input id="email" name="email" type="email" required maxlength="150" autocomplete="off" spellcheck="false" value="${form.email}"${errors.email ? html` aria-describedby="email-error"` : ''}${invalid('email')}${focus('email')}>
</div>
${roleField(m, { id: 'role', roles: rolesGivenBy(shell.session.user.role), chosen: form.role, error: errors.role ? m.text('invite.roleInvalid') : undefined, focus: first === 'role' })}
<div class="field"><div class="check"><input type="checkbox" id="esign_seat" name="esign_seat" value="yes"${form.seat ? ' checked' : ''}>
<label for="esign_seat">${m.text('invite.seat')}</label></div></div>
<div class="actions">
<button type="submit">${m.text('invite.submit')}</button>
<a href="/app/users">${m.text('users.cancel')}</a>
</div>
</form>
</section>`,
  });
}

/** The role's select. */
export function roleField(
  m: AppMessages,
  options: { id: string; roles: readonly UserRole[]; chosen: string; error?: string | undefined; focus?: boolean },
): Html {
  const { id, error } = options;
  return html`<div class="field${error ? ' field-invalid' : ''}">
<label for="${id}">${m.text('invite.role')}</label>
${error ? fieldError(m, `${id}-error`, error) : ''}
<select id="${id}" name="role"${error ? html` aria-describedby="${id}-error" aria-invalid="true"` : ''}${options.focus ? html` autofocus` : ''}>
${options.roles.map((role) => html`<option value="${role}"${role === options.chosen ? ' selected' : ''}>${m.text(`role.${role}`)}</option>`)}
</select>
</div>`;
}

export const usersRefusedPage = (m: AppMessages, shell: Shell): Html =>
  noticePage({ m, title: m.text('users.refused.title'), lead: m.text('users.refused.lead'), tone: 'warning', shell });

export const ownerOnlyPage = (m: AppMessages, shell: Shell): Html =>
  noticePage({ m, title: m.text('users.ownerOnly.title'), lead: m.text('users.ownerOnly.lead'), tone: 'warning', shell: framed(shell) });
