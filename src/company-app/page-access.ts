/**
 * What every page of a permission asks first: a signed-in user whose role has the permission
 * (src/domain/app-access/roles.ts). Any other role is answered with the area's refusal page (403),
 * on the pages and on a forged post alike, rather than only a missing link; signed out, the person
 * is sent to `/app` to sign in, and comes back to the page once signed in (return-path.ts). And the company a page reads or changes is always the session's,
 * never one named by the form or the path: another company's id is then not found, as an unknown
 * one is.
 */
import type { Context } from 'hono';
import { can, type Permission } from '../domain/app-access/roles.js';
import type { CompanyReadContext } from '../domain/read-context.js';
import type { CompanyContext } from '../domain/verb-context.js';
import type { AppMessages } from '../i18n/app-messages.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Html, Shell } from './html/layout.js';
import { appMessages } from './messages.js';
import { toSignIn } from './return-path.js';
import { appVerbContext, shellOf } from './session.js';

/** The shell of a user whose role has `permission`, or the answer for anyone else. */
export async function permittedShell(
  c: Context<CompanyAppEnv>,
  permission: Permission,
  refusedPage: (m: AppMessages, shell: Shell) => Html,
): Promise<Shell | Response> {
  const shell = await shellOf(c);
  if (!shell) return toSignIn(c);
  if (!can(shell.session.user.role, permission)) return c.html(refusedPage(appMessages(), shell), 403);
  return shell;
}

/** Reads of the session's company. */
export function companyReads(c: Context<CompanyAppEnv>, shell: Shell): CompanyReadContext {
  const services = c.get('services');
  return { services, now: services.clock.now(), companyId: shell.session.user.companyId };
}

/** A change acted by the signed-in user, to the session's company. */
export function companyChanges(c: Context<CompanyAppEnv>, shell: Shell): CompanyContext {
  return { ...appVerbContext(c), companyId: shell.session.user.companyId };
}
