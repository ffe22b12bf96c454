/**
 * Who may reach the API keys pages: a signed-in user whose role may manage keys (`keys:manage`).
 * Any other role is answered with a refusal page (403), on the pages and on a forged post alike,
 * rather than only a missing link; signed out, the person is sent to sign in.
 */
import type { Context } from 'hono';
import { can } from '../domain/app-access/roles.js';
import type { CompanyReadContext } from '../domain/read-context.js';
import type { CompanyAppEnv } from './app-env.js';
import { keysRefusedPage } from './html/keys-pages.js';
import type { Shell } from './html/layout.js';
import { appMessages } from './messages.js';
import { shellOf } from './session.js';

/** The shell of a user who may manage keys, or the answer for anyone else. */
export async function keysShell(c: Context<CompanyAppEnv>): Promise<Shell | Response> {
  const shell = await shellOf(c);
  if (!shell) return c.redirect('/app', 303);
  if (!can(shell.session.user.role, 'keys:manage')) return c.html(keysRefusedPage(appMessages(), shell), 403);
  return shell;
}

/** Reads of the session's company only: never a company named by the form or the path. */
export function keysReadContext(c: Context<CompanyAppEnv>, shell: Shell): CompanyReadContext {
  const services = c.get('services');
  return { services, now: services.clock.now(), companyId: shell.session.user.companyId };
}
