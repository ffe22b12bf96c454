/** GET /app/users/{id}: one user of the company, what was just done to them, and the forms that change them. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { type UserNotice, userPage } from '../../src/company-app/html/user-page.js';
import { appMessages } from '../../src/company-app/messages.js';
import { userOfPath } from '../../src/company-app/users-access.js';

const notices: readonly string[] = ['invited', 'changed', 'unchanged', 'deactivated', 'reactivated'] satisfies UserNotice[];

export async function showUser(c: Context<CompanyAppEnv>): Promise<Response> {
  const found = await userOfPath(c);
  if (found instanceof Response) return found;
  const done = c.req.query('done') ?? '';
  const notice = notices.includes(done) ? (done as UserNotice) : undefined;
  return c.html(userPage(appMessages(), found.shell, { user: found.user, notice }));
}
