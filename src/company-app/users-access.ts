/**
 * Who may reach the users pages: a signed-in user whose role may manage users (`users:manage`);
 * any other role gets the users' refusal page (page-access.ts). The user a page names is read
 * within the session's company: another company's id is not found, as an unknown one is.
 */
import type { Context } from 'hono';
import { type CompanyUser, companyUser } from '../domain/users/company-users.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { notFoundPage } from './html/notice-pages.js';
import { usersRefusedPage } from './html/users-pages.js';
import { appMessages } from './messages.js';
import { companyReads, permittedShell } from './page-access.js';

/** The shell of a user who may manage users, or the answer for anyone else. */
export const usersShell = (c: Context<CompanyAppEnv>): Promise<Shell | Response> => permittedShell(c, 'users:manage', usersRefusedPage);

/** The shell and the user of the path, or the answer: a refusal, or not found. */
export async function userOfPath(c: Context<CompanyAppEnv>): Promise<{ shell: Shell; user: CompanyUser } | Response> {
  const shell = await usersShell(c);
  if (shell instanceof Response) return shell;
  const user = await companyUser(companyReads(c, shell), c.req.param('id') ?? '');
  if (!user) return c.html(notFoundPage(appMessages()), 404);
  return { shell, user };
}
