/** GET /app/company: the companies the signed-in person is a user of, to switch between. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { formTokenFor } from '../../src/company-app/form-token.js';
import { chooseCompanyPage } from '../../src/company-app/html/sign-in-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { sessionOf, shellOf } from '../../src/company-app/session.js';
import { activeMemberships } from '../../src/domain/app-access/people.js';

export async function showCompanies(c: Context<CompanyAppEnv>): Promise<Response> {
  const session = sessionOf(c);
  if (!session) return c.redirect('/app', 303);
  const [memberships, shell] = await Promise.all([activeMemberships(c.get('services'), session.email), shellOf(c)]);
  return c.html(
    chooseCompanyPage(appMessages(), { memberships, current: session.user?.id ?? null, formToken: await formTokenFor(c), ...(shell ? { shell } : {}) }),
  );
}
