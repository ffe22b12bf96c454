/** POST /app/sign-out: the session ends, its cookie goes, and the sign-in page says so. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { clearSessionCookie } from '../../src/company-app/cookies.js';
import { appVerbContext, sessionOf } from '../../src/company-app/session.js';
import { signOut } from '../../src/domain/app-access/sessions.js';

export async function signOutHandler(c: Context<CompanyAppEnv>): Promise<Response> {
  const session = sessionOf(c);
  if (session) await signOut(appVerbContext(c), session);
  clearSessionCookie(c);
  return c.redirect('/app?signed-out', 303);
}
