/** GET /app/users: the company's users, for its owners and administrators. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { usersListPage } from '../../src/company-app/html/users-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { usersShell } from '../../src/company-app/users-access.js';
import { companyUsers, USERS_SHOWN } from '../../src/domain/users/company-users.js';
import { companyReads } from '../../src/company-app/page-access.js';

export async function showUsers(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await usersShell(c);
  if (shell instanceof Response) return shell;
  const users = await companyUsers(companyReads(c, shell));
  return c.html(usersListPage(appMessages(), shell, { users, shown: USERS_SHOWN }));
}
