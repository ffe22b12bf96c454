/**
 * GET /app: the home of a signed-in user (the company, their role); signed in without a company
 * yet, the choice of company; signed out, the sign-in page.
 */
import type { Context } from 'hono';
import { type CompanyAppEnv, sessionReadOf } from '../../src/company-app/app-env.js';
import { formTokenFor } from '../../src/company-app/form-token.js';
import { homePage } from '../../src/company-app/html/home-page.js';
import { chooseCompanyPage, type SignInNotice, signInPage } from '../../src/company-app/html/sign-in-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { sessionOf, shellOf } from '../../src/company-app/session.js';
import { activeMemberships } from '../../src/domain/app-access/people.js';

export async function showHome(c: Context<CompanyAppEnv>): Promise<Response> {
  const m = appMessages();
  const shell = await shellOf(c);
  if (shell) return c.html(homePage(m, shell));
  const session = sessionOf(c);
  if (session) {
    const memberships = await activeMemberships(c.get('services'), session.email);
    return c.html(chooseCompanyPage(m, { memberships, current: null, formToken: await formTokenFor(c) }));
  }
  const notice: SignInNotice | undefined = sessionReadOf(c).kind === 'ended' ? 'ended' : c.req.query('signed-out') !== undefined ? 'signedOut' : undefined;
  return c.html(signInPage(m, { formToken: await formTokenFor(c), ...(notice ? { notice } : {}) }));
}
