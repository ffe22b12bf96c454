/**
 * Who may reach the settings pages: a signed-in user whose role may manage the settings
 * (`settings:manage`, owners and administrators). Any other role is answered with a refusal page
 * (403), on the pages and on a forged post alike; signed out, the person is sent to sign in.
 */
import type { Context } from 'hono';
import { can } from '../domain/app-access/roles.js';
import type { CompanyReadContext } from '../domain/read-context.js';
import type { CompanyContext } from '../domain/verb-context.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { settingsRefusedPage } from './html/settings-page.js';
import { appMessages } from './messages.js';
import { appVerbContext, shellOf } from './session.js';

/** The shell of a user who may manage the settings, or the answer for anyone else. */
export async function settingsShell(c: Context<CompanyAppEnv>): Promise<Shell | Response> {
  const shell = await shellOf(c);
  if (!shell) return c.redirect('/app', 303);
  if (!can(shell.session.user.role, 'settings:manage')) return c.html(settingsRefusedPage(appMessages(), shell), 403);
  return shell;
}

/** Reads of the session's company only: never a company named by the form or the path. */
export function settingsReadContext(c: Context<CompanyAppEnv>, shell: Shell): CompanyReadContext {
  const services = c.get('services');
  return { services, now: services.clock.now(), companyId: shell.session.user.companyId };
}

/** A change made by the signed-in user, to the session's company. */
export const settingsVerbContext = (c: Context<CompanyAppEnv>, shell: Shell): CompanyContext => ({
  ...appVerbContext(c),
  companyId: shell.session.user.companyId,
});
