/**
 * Who may reach the users pages: a signed-in user whose role may manage users (`users:manage`).
 * Any other role is answered with a refusal page (403), on the pages and on a forged post alike;
 * signed out, the person is sent to sign in. The user a page names is always read within the
 * session's company: another company's id is not found, as an unknown one is.
 */
import type { Context } from 'hono';
import { can } from '../domain/app-access/roles.js';
import { type CompanyUser, companyUser } from '../domain/users/company-users.js';
import type { CompanyReadContext } from '../domain/read-context.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { notFoundPage } from './html/notice-pages.js';
import { usersRefusedPage } from './html/users-pages.js';
import { appMessages } from './messages.js';
import { shellOf } from './session.js';

/** The shell of a user who may manage users, or the answer for anyone else. */
export async function usersShell(c: Context<CompanyAppEnv>): Promise<Shell | Response> {
  const shell = await shellOf(c);
  if (!shell) return c.redirect('/app', 303);
  if (!can(shell.session.user.role, 'users:manage')) return c.html(usersRefusedPage(appMessages(), shell), 403);
  return shell;
}

/** Reads of the session's company only: never a company named by the form or the path. */
export function usersReadContext(c: Context<CompanyAppEnv>, shell: Shell): CompanyReadContext {
  const services = c.get('services');
  return { services, now: services.clock.now(), companyId: shell.session.user.companyId };
}

/** The shell and the user of the path, or the answer: a refusal, or not found. */
export async function userOfPath(c: Context<CompanyAppEnv>): Promise<{ shell: Shell; user: CompanyUser } | Response> {
  const shell = await usersShell(c);
  if (shell instanceof Response) return shell;
  const user = await companyUser(usersReadContext(c, shell), c.req.param('id') ?? '');
  if (!user) return c.html(notFoundPage(appMessages()), 404);
  return { shell, user };
}
