/**
 * GET /app/sign-in/{token}: the link of the sign-in e-mail shows a button, and only its post
 * spends the link: mail scanners open the links in e-mails, and must not use them up.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { formTokenFor } from '../../src/company-app/form-token.js';
import { linkInvalidPage, signInLinkPage } from '../../src/company-app/html/sign-in-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { appVerbContext } from '../../src/company-app/session.js';
import { usableSignInLink } from '../../src/domain/app-access/sign-in-links.js';

export async function showSignInLink(c: Context<CompanyAppEnv>): Promise<Response> {
  const m = appMessages();
  const token = c.req.param('token') ?? '';
  const link = await usableSignInLink(appVerbContext(c), token);
  if (!link) return c.html(linkInvalidPage(m), 410);
  return c.html(signInLinkPage(m, { email: link.email, formToken: await formTokenFor(c), action: `/app/sign-in/${encodeURIComponent(token)}` }));
}
