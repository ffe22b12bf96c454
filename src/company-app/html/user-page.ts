/**
 * One user's page: who they are, the form that changes their role and e-signing seat, and
 * deactivate (behind a confirmation page) or reactivate. An administrator looking at an owner sees
 * the details only: only an owner changes an owner (owner-rules.ts).
 */
import { html } from 'hono/html';
import type { UserRole } from '../../data/schema.js';
import type { CompanyUser } from '../../domain/users/company-users.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type Html, layout, type Shell } from './layout.js';
import { framed, hidden, roleField, rolesGivenBy, statusBadge } from './users-pages.js';

/** What the page says above the user: the outcome of what was just done. */
export type UserNotice = 'invited' | 'changed' | 'unchanged' | 'deactivated' | 'reactivated' | 'last_owner' | 'role_invalid';

export function userPage(
  m: AppMessages,
  shell: Shell,
  options: { user: CompanyUser; notice?: UserNotice | undefined; form?: { role: UserRole; seat: boolean } },
): Html {
  const { user } = options;
  const actor = shell.session.user;
  const mayChange = actor.role === 'owner' || user.role !== 'owner';
  const form = options.form ?? { role: user.role, seat: user.esignSeat };
  return layout({
    m,
    title: user.name,
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="user-title">
<p><a href="/app/users">${m.text('users.back')}</a></p>
${options.notice ? noticeOf(m, user, options.notice) : ''}
<h1 id="user-title">${user.name}</h1>
<dl class="details">
<div><dt>${m.text('users.email')}</dt><dd>${user.email}</dd></div>
<div><dt>${m.text('users.role')}</dt><dd>${m.text(`role.${user.role}`)}</dd></div>
<div><dt>${m.text('users.seat')}</dt><dd>${m.text(user.esignSeat ? 'users.seat.yes' : 'users.seat.no')}</dd></div>
<div><dt>${m.text('users.status')}</dt><dd>${statusBadge(m, user.active)}</dd></div>
<div><dt>${m.text('users.created')}</dt><dd>${m.date(user.createdAt, { withTime: true })}</dd></div>
</dl>
${user.id === actor.id ? html`<p class="hint">${m.text('user.selfNote')}</p>` : ''}
${mayChange ? changeForms(m, shell, user, form) : html`<p class="hint">${m.text('user.ownerOnlyNote')}</p>`}
</section>`,
  });
}

function changeForms(m: AppMessages, shell: Shell, user: CompanyUser, form: { role: UserRole; seat: boolean }): Html {
  return html`<h2 id="change-title">${m.text('user.change')}</h2>
<form method="post" action="/app/users/${user.id}" aria-labelledby="change-title">
${hidden(shell)}
${roleField(m, { id: 'role', roles: rolesGivenBy(shell.session.user.role), chosen: form.role })}
<div class="field"><div class="check"><input type="checkbox" id="esign_seat" name="esign_seat" value="yes"${form.seat ? ' checked' : ''}>
<label for="esign_seat">${m.text('invite.seat')}</label></div></div>
<div class="actions"><button type="submit">${m.text('user.save')}</button></div>
</form>
${
  user.active
    ? html`<p><a class="button-link button-danger" href="/app/users/${user.id}/deactivate">${m.text('user.deactivate')}</a></p>`
    : html`<h2 id="reactivate-title">${m.text('user.reactivate')}</h2>
<p>${m.text('user.reactivateLead')}</p>
<form method="post" action="/app/users/${user.id}/reactivate" aria-labelledby="reactivate-title">
${hidden(shell)}
<div class="actions"><button type="submit">${m.text('user.reactivate')}</button></div>
</form>`
}`;
}

function noticeOf(m: AppMessages, user: CompanyUser, notice: UserNotice): Html {
  const values = { name: user.name, email: user.email };
  if (notice === 'last_owner' || notice === 'role_invalid') {
    return html`<p class="notice notice-warning" role="alert">${m.text(notice === 'last_owner' ? 'user.lastOwner' : 'invite.roleInvalid')}</p>`;
  }
  const keys = {
    invited: 'user.invited',
    changed: 'user.changed',
    unchanged: 'user.unchanged',
    deactivated: 'user.deactivatedNotice',
    reactivated: 'user.reactivatedNotice',
  } as const;
  const key = keys[notice];
  return html`<p class="status" role="status">${m.text(key, values)}</p>`;
}

/** The step before deactivating: what it does, and the button that does it. */
export function confirmDeactivatePage(m: AppMessages, shell: Shell, user: CompanyUser): Html {
  const title = m.text('deactivate.title', { name: user.name });
  const self = user.id === shell.session.user.id;
  return layout({
    m,
    title,
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="confirm-title">
<h1 id="confirm-title">${title}</h1>
<p class="lead">${m.text(self ? 'deactivate.selfLead' : 'deactivate.lead', { name: user.name, email: user.email })}</p>
<form method="post" action="/app/users/${user.id}/deactivate">
${hidden(shell)}
<div class="actions">
<button type="submit" class="button-danger">${m.text('deactivate.submit')}</button>
<a href="/app/users/${user.id}">${m.text('users.cancel')}</a>
</div>
</form>
</section>`,
  });
}
