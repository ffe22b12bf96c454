/**
 * What every answer under `/app` carries, and the checks every request passes before a page runs:
 * the session of its cookie is read (and, when it has ended, its cookie cleared), and a post must
 * come from one of the application's own pages: not cross-site (Origin, Sec-Fetch-Site) and with
 * the form token of its session or signed-out browser.
 *
 * The application shows a company's people, keys and envelopes, so its pages are never stored,
 * never framed and never named to another site; its content policy allows scripts, styles and
 * images from our own files only, none inline, and forms that post to us only. A page that needs
 * otherwise says its own policy (`pagePolicy`): the settings page and the e-mail preview it frames.
 */
import { createMiddleware } from 'hono/factory';
import { readSession, type SessionRead } from '../domain/app-access/sessions.js';
import { verbContext } from '../domain/verb-context.js';
import { formTokenOf, readForm } from '../http/page-forms.js';
import { contentSecurityPolicy, isCrossSitePost, pageHeaders } from '../http/page-security.js';
import type { CompanyAppEnv } from './app-env.js';
import { clearSessionCookie, sessionCookie } from './cookies.js';
import { isFormTokenValid } from './form-token.js';
import { forbiddenPage } from './html/notice-pages.js';
import { appMessages } from './messages.js';

export const APP_CSP = contentSecurityPolicy({
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'font-src': "'self'",
  'form-action': "'self'",
  'base-uri': "'none'",
  'frame-ancestors': "'none'",
});

export const appPageHeaders: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': APP_CSP,
  ...pageHeaders,
};

/**
 * Sessions are for people, bearer tokens for programs: nothing here reads `Authorization`, and
 * the API never reads the session's cookie.
 */
export const appGuard = createMiddleware<CompanyAppEnv>(async (c, next) => {
  const secret = sessionCookie(c);
  const read: SessionRead = secret ? await readSession(verbContext(c.get('services'), { kind: 'visitor' }), secret) : { kind: 'none' };
  c.set('session', read);
  if (secret !== undefined && read.kind !== 'active') clearSessionCookie(c);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !(await fromOurOwnPage(c))) c.res = await c.html(forbiddenPage(appMessages()), 403);
  else await next();
  for (const [name, value] of Object.entries(appPageHeaders)) c.res.headers.set(name, value);
  const own = c.get('pagePolicy');
  if (own) {
    c.res.headers.set('Content-Security-Policy', own.contentSecurityPolicy);
    c.res.headers.set('X-Frame-Options', own.frameOptions);
  }
  return c.res;
});

async function fromOurOwnPage(c: Parameters<Parameters<typeof createMiddleware<CompanyAppEnv>>[0]>[0]): Promise<boolean> {
  if (isCrossSitePost(c)) return false;
  const entries = await readForm(c);
  return entries !== null && isFormTokenValid(c, formTokenOf(entries));
}
