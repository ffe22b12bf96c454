/**
 * The posts that change a user: POST /app/users/{id} (role and e-signing seat), and
 * /app/users/{id}/deactivate and /reactivate; and GET /app/users/{id}/deactivate, the confirmation.
 * The user is one of the session's company (else 404); only an owner touches the owner role (else
 * 403); a change that would leave no active owner is refused (422, nothing changed). Each change
 * ends the user's sessions on their next request by itself (sessions.ts compares role and status).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { confirmDeactivatePage, userPage } from '../../src/company-app/html/user-page.js';
import type { Shell } from '../../src/company-app/html/layout.js';
import { ownerOnlyPage } from '../../src/company-app/html/users-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { appVerbContext } from '../../src/company-app/session.js';
import { userOfPath } from '../../src/company-app/users-access.js';
import { changeUser, type UserChange } from '../../src/domain/users/change-user.js';
import type { CompanyUser } from '../../src/domain/users/company-users.js';
import { mayTouchOwners } from '../../src/domain/users/owner-rules.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { isRole } from './users-invite.js';

/** Acts `change` on the user, and answers: back to their page, or the refusal of the last owner. */
async function act(c: Context<CompanyAppEnv>, shell: Shell, user: CompanyUser, change: UserChange, done: string): Promise<Response> {
  const m = appMessages();
  if (!mayTouchOwners(shell.session.user.role, user.role, change.role)) return c.html(ownerOnlyPage(m, shell), 403);
  const outcome = await changeUser({ ...appVerbContext(c), companyId: shell.session.user.companyId }, user, change);
  if (outcome === 'last_owner') return c.html(userPage(m, shell, { user, notice: 'last_owner' }), 422);
  return c.redirect(`/app/users/${user.id}?done=${outcome === 'unchanged' ? 'unchanged' : done}`, 303);
}

export async function changeRoleAndSeat(c: Context<CompanyAppEnv>): Promise<Response> {
  const found = await userOfPath(c);
  if (found instanceof Response) return found;
  const { shell, user } = found;
  const entries = (await readForm(c)) ?? [];
  const role = singleValue(entries, 'role') ?? '';
  if (!isRole(role)) return c.html(userPage(appMessages(), shell, { user, notice: 'role_invalid' }), 422);
  return act(c, shell, user, { role, esignSeat: singleValue(entries, 'esign_seat') === 'yes', active: user.active }, 'changed');
}

export async function confirmDeactivate(c: Context<CompanyAppEnv>): Promise<Response> {
  const found = await userOfPath(c);
  if (found instanceof Response) return found;
  const { shell, user } = found;
  if (!mayTouchOwners(shell.session.user.role, user.role, user.role)) return c.html(ownerOnlyPage(appMessages(), shell), 403);
  if (!user.active) return c.redirect(`/app/users/${user.id}`, 303);
  return c.html(confirmDeactivatePage(appMessages(), shell, user));
}

const setActive = (active: boolean) =>
  async function setUserActive(c: Context<CompanyAppEnv>): Promise<Response> {
    const found = await userOfPath(c);
    if (found instanceof Response) return found;
    const { shell, user } = found;
    return act(c, shell, user, { role: user.role, esignSeat: user.esignSeat, active }, active ? 'reactivated' : 'deactivated');
  };

export const deactivateUser = setActive(false);
export const reactivateUser = setActive(true);
