/**
 * GET /app/users/new, the invitation's form, and POST /app/users: makes the user and e-mails the
 * invitation (after the answer), then shows the user's page. A form with a mistake, or an address
 * that is already a user of the company, is shown again (422), nothing made or sent. Only an owner
 * may invite an owner: an administrator's forged post of that role is refused (403).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { type InviteErrors, type InviteForm, invitePage, ownerOnlyPage } from '../../src/company-app/html/users-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { appVerbContext } from '../../src/company-app/session.js';
import { usersShell } from '../../src/company-app/users-access.js';
import { type UserRole, userRoles } from '../../src/data/schema.js';
import { SIGN_IN_LINK_LIFETIME_MS } from '../../src/domain/app-access/sign-in-links.js';
import { emailAddress, requiredSingleLineText } from '../../src/domain/shared/text-fields.js';
import { inviteUser } from '../../src/domain/users/invite-user.js';
import { mayTouchOwners } from '../../src/domain/users/owner-rules.js';
import { afterResponse } from '../../src/http/after-response.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { logError } from '../../src/lib/log-error.js';

const MINUTES = SIGN_IN_LINK_LIFETIME_MS / 60_000;
const nameRule = requiredSingleLineText(120);
const emailRule = emailAddress();
export const isRole = (value: string): value is UserRole => (userRoles as readonly string[]).includes(value);

export async function showInvite(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await usersShell(c);
  if (shell instanceof Response) return shell;
  return c.html(invitePage(appMessages(), shell, { minutes: MINUTES }));
}

export async function invite(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await usersShell(c);
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const entries = (await readForm(c)) ?? [];
  const form: InviteForm = {
    name: singleValue(entries, 'name')?.trim() ?? '',
    email: singleValue(entries, 'email')?.trim() ?? '',
    role: singleValue(entries, 'role') ?? '',
    seat: singleValue(entries, 'esign_seat') === 'yes',
  };
  const name = nameRule.safeParse(form.name);
  const email = emailRule.safeParse(form.email);
  const role = isRole(form.role) ? form.role : null;
  if (role && !mayTouchOwners(shell.session.user.role, null, role)) return c.html(ownerOnlyPage(m, shell), 403);
  const errors: InviteErrors = {
    ...(name.success ? {} : { name: 'invalid' }),
    ...(email.success ? {} : { email: 'invalid' }),
    ...(role ? {} : { role: 'invalid' }),
  };
  const shown = { ...form, name: form.name.slice(0, 120), email: form.email.slice(0, 150) };
  if (!name.success || !email.success || !role) return c.html(invitePage(m, shell, { minutes: MINUTES, form: shown, errors }), 422);

  const invited = await inviteUser(
    { ...appVerbContext(c), companyId: shell.session.user.companyId },
    { name: name.data, email: email.data, role, esignSeat: form.seat },
    shell.session.user.name,
  );
  if (invited.outcome === 'exists') return c.html(invitePage(m, shell, { minutes: MINUTES, form: shown, errors: { email: 'taken' } }), 422);
  afterResponse(c, () => invited.deliver().catch((err) => logError('the invitation e-mail could not be sent', err)));
  return c.redirect(`/app/users/${invited.userId}?done=invited`, 303);
}
