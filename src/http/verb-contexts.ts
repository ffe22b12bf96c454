import type { Context } from 'hono';
import type { CompanyContext, VerbContext } from '../domain/verb-context.js';
import type { AppEnv } from './app-env.js';

/**
 * The contexts the API's handlers give their verbs: the verb's side effects go to the request's
 * outbox (relay-after-answer.ts), relayed after the answer.
 */
export function operatorContext(c: Context<AppEnv>): VerbContext<{ kind: 'operator' }>;
export function operatorContext(c: Context<AppEnv>, companyId: string): CompanyContext<{ kind: 'operator' }>;
export function operatorContext(c: Context<AppEnv>, companyId?: string) {
  const services = c.get('services');
  const ctx = { services, actor: { kind: 'operator' } as const, now: services.clock.now(), outbox: c.get('outbox') };
  return companyId === undefined ? ctx : { ...ctx, companyId };
}
