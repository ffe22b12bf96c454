/**
 * POST /app/company: the person works in the company of the user they chose, one of their own
 * (the same address, active); any other user id answers as an unknown one does. Then to /app, or
 * to the page they were going to when asked to sign in.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { takeReturnPath } from '../../src/company-app/return-path.js';
import { appVerbContext, sessionOf } from '../../src/company-app/session.js';
import { chooseUser } from '../../src/domain/app-access/sessions.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';

export async function chooseCompany(c: Context<CompanyAppEnv>): Promise<Response> {
  const session = sessionOf(c);
  if (!session) return c.redirect('/app', 303);
  const userId = singleValue((await readForm(c)) ?? [], 'user_id') ?? '';
  if (!(await chooseUser(appVerbContext(c), session, userId))) return c.html(notFoundPage(appMessages()), 404);
  return c.redirect(takeReturnPath(c), 303);
}
