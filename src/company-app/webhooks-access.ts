/**
 * Who may reach the webhooks pages: every signed-in user sees the subscriptions and their
 * deliveries (`webhooks:read`); only a role that may manage them (`webhooks:manage`) opens the
 * forms or acts, and any other gets a refusal page (403), on the pages and on a forged post alike.
 * Signed out, the person is sent to sign in.
 */
import type { Context } from 'hono';
import { can } from '../domain/app-access/roles.js';
import type { CompanyReadContext } from '../domain/read-context.js';
import type { CompanyContext } from '../domain/verb-context.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { webhooksRefusedPage } from './html/webhook-pages.js';
import { appMessages } from './messages.js';
import { appVerbContext, shellOf } from './session.js';

/** The shell of a user who may see the webhooks, or the answer for anyone else. */
export async function webhooksReadShell(c: Context<CompanyAppEnv>): Promise<Shell | Response> {
  const shell = await shellOf(c);
  if (!shell) return c.redirect('/app', 303);
  if (!can(shell.session.user.role, 'webhooks:read')) return c.html(webhooksRefusedPage(appMessages(), shell), 403);
  return shell;
}

/** The shell of a user who may manage the webhooks, or the answer for anyone else. */
export async function webhooksManageShell(c: Context<CompanyAppEnv>): Promise<Shell | Response> {
  const shell = await webhooksReadShell(c);
  if (shell instanceof Response) return shell;
  if (!can(shell.session.user.role, 'webhooks:manage')) return c.html(webhooksRefusedPage(appMessages(), shell), 403);
  return shell;
}

/** Reads of the session's company only: never a company named by the form or the path. */
export function webhooksReadContext(c: Context<CompanyAppEnv>, shell: Shell): CompanyReadContext {
  const services = c.get('services');
  return { services, now: services.clock.now(), companyId: shell.session.user.companyId };
}

/** A webhook verb acted by the signed-in user, in the session's company. */
export function webhooksVerbContext(c: Context<CompanyAppEnv>, shell: Shell): CompanyContext {
  return { ...appVerbContext(c), companyId: shell.session.user.companyId };
}
