/**
 * Where a signed-out person was going when the application asked them to sign in (a link to an
 * envelope in a Completed e-mail, a bookmark): kept in a cookie of this browser while they ask for
 * a link and spend it, then the page they land on. Only a path of the application is ever kept or
 * followed, so the cookie cannot send anyone to another site or to the API.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from './app-env.js';
import { clearReturnCookie, returnCookie, setReturnCookie } from './cookies.js';

// `/app` and its pages: segments of letters, digits, `-` and `_` (ids, names), no query, no `..`.
const APP_PATH = /^\/app(?:\/[A-Za-z0-9_-]+)*$/;
const LONGEST = 200;

/** `value` when it is a page of the application to come back to, else null. */
export function appReturnPath(value: string | undefined): string | null {
  return value !== undefined && value.length <= LONGEST && APP_PATH.test(value) ? value : null;
}

/** Before sending a signed-out GET to sign in: remember the page it asked for. */
export function rememberReturnPath(c: Context<CompanyAppEnv>) {
  const path = appReturnPath(c.req.path);
  if (c.req.method === 'GET' && path && path !== '/app') setReturnCookie(c, path);
}

/** The answer to a request without a session: to `/app` to sign in, a GET's page remembered. */
export function toSignIn(c: Context<CompanyAppEnv>): Response {
  rememberReturnPath(c);
  return c.redirect('/app', 303);
}

/** Once signed in (and the company chosen): the page to go to, the cookie spent; `/app` when none. */
export function takeReturnPath(c: Context<CompanyAppEnv>): string {
  const kept = returnCookie(c);
  if (kept !== undefined) clearReturnCookie(c);
  return appReturnPath(kept) ?? '/app';
}
