/**
 * The request's session as the pages use it (read once by the guard, security.ts): whether the
 * person is signed in, has chosen a company, and the shell that frames their pages.
 */
import type { Context } from 'hono';
import type { AppSession } from '../domain/app-access/sessions.js';
import { type VerbContext, verbContext } from '../domain/verb-context.js';
import { type CompanyAppEnv, sessionReadOf } from './app-env.js';
import { formTokenFor } from './form-token.js';
import type { Shell } from './html/layout.js';

/** The session, signed in (a company chosen or not), or null. */
export function sessionOf(c: Context<CompanyAppEnv>): AppSession | null {
  const read = sessionReadOf(c);
  return read.kind === 'active' ? read.session : null;
}

/** The shell of a session with a company chosen, or null: the page then asks to sign in or to choose. */
export async function shellOf(c: Context<CompanyAppEnv>): Promise<Shell | null> {
  const session = sessionOf(c);
  if (!session?.user) return null;
  return { session: { ...session, user: session.user }, formToken: await formTokenFor(c) };
}

/**
 * The context of a verb acted by the signed-in user, or by a visitor when none, with the request's
 * outbox: what the verb commits is relayed after the answer (src/http/relay-after-answer.ts).
 */
export function appVerbContext(c: Context<CompanyAppEnv>): VerbContext {
  const session = sessionOf(c);
  const services = c.get('services');
  const ctx = session?.user
    ? verbContext(services, { kind: 'user', userId: session.user.id, sessionId: session.id })
    : verbContext(services, { kind: 'visitor' });
  return { ...ctx, outbox: c.get('outbox') };
}
