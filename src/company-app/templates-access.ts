/**
 * Who may reach the templates pages: every signed-in role reads them (`templates:read`); building
 * and changing a template is `templates:manage`. A role without it gets a refusal page (403) on the
 * builder's pages and on a forged post alike; signed out, the person is sent to sign in.
 */
import type { Context } from 'hono';
import { can, type Permission } from '../domain/app-access/roles.js';
import type { CompanyReadContext } from '../domain/read-context.js';
import type { CompanyContext } from '../domain/verb-context.js';
import type { CompanyAppEnv } from './app-env.js';
import { templatesRefusedPage } from './html/templates-pages.js';
import type { Shell } from './html/layout.js';
import { appMessages } from './messages.js';
import { appVerbContext, shellOf } from './session.js';

/** The shell of a user whose role has `permission`, or the answer for anyone else. */
export async function templatesShell(c: Context<CompanyAppEnv>, permission: Permission = 'templates:read'): Promise<Shell | Response> {
  const shell = await shellOf(c);
  if (!shell) return c.redirect('/app', 303);
  if (!can(shell.session.user.role, permission)) return c.html(templatesRefusedPage(appMessages(), shell), 403);
  return { ...shell, current: 'templates' };
}

/** Reads of the session's company only: never a company named by the form or the path. */
export function templatesReadContext(c: Context<CompanyAppEnv>, shell: Shell): CompanyReadContext {
  const services = c.get('services');
  return { services, now: services.clock.now(), companyId: shell.session.user.companyId };
}

/** The user's verbs, in the session's company. */
export function templatesVerbContext(c: Context<CompanyAppEnv>, shell: Shell): CompanyContext {
  return { ...appVerbContext(c), companyId: shell.session.user.companyId };
}
