/**
 * The signed-in user as the envelope pages' verbs see them: who acts (the audit rows name them),
 * their role and company (every read and action is scoped to it, never to an id from the form).
 */
import type { Context } from 'hono';
import type { AppUser, UserActor } from '../domain/envelopes/envelope-actions.js';
import type { VerbContext } from '../domain/verb-context.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';

export const appUserOf = (shell: Shell): AppUser => ({ id: shell.session.user.id, role: shell.session.user.role, companyId: shell.session.user.companyId });

/** The user's verb context, with the request's outbox: what the verb commits is relayed after the answer. */
export function userVerbContext(c: Context<CompanyAppEnv>, shell: Shell): VerbContext<UserActor> {
  const services = c.get('services');
  return { services, actor: { kind: 'user', userId: shell.session.user.id, sessionId: shell.session.id }, now: services.clock.now(), outbox: c.get('outbox') };
}
