/**
 * POST /app/sign-in/{token}: spends the link, once, and starts the session: its cookie is set and
 * the person goes to /app (the choice of company first, for a user of several; an invitation's
 * link goes straight to the company that invited them), or back to the page of /app they were
 * going to when they were asked to sign in.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { setSessionCookie } from '../../src/company-app/cookies.js';
import { linkInvalidPage, noCompanyPage } from '../../src/company-app/html/sign-in-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { takeReturnPath } from '../../src/company-app/return-path.js';
import { appVerbContext, sessionOf } from '../../src/company-app/session.js';
import { signOut, startSession } from '../../src/domain/app-access/sessions.js';
import { spendSignInLink } from '../../src/domain/app-access/sign-in-links.js';

export async function spendLink(c: Context<CompanyAppEnv>): Promise<Response> {
  const m = appMessages();
  const ctx = appVerbContext(c);
  const spent = await spendSignInLink(ctx, c.req.param('token') ?? '');
  if (!spent) return c.html(linkInvalidPage(m), 410);
  const started = await startSession(ctx, spent.email, spent.userId);
  if (!started) return c.html(noCompanyPage(m), 403);
  // A browser holds one session: the one it had before ends.
  const earlier = sessionOf(c);
  if (earlier) await signOut(ctx, earlier);
  setSessionCookie(c, started.secret);
  return c.redirect(takeReturnPath(c), 303);
}
