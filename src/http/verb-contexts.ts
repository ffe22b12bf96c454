import type { Context } from 'hono';
import type { ApiKeyContext } from '../domain/auth/api-key-context.js';
import type { Principal } from '../domain/auth/principal.js';
import type { ReadContext } from '../domain/read-context.js';
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

/** An API key's, once checked (authenticate.ts): `now` is the key check's, which the reads made beside it shared. */
export function apiKeyContext(c: Context<AppEnv>, principal: Principal, now: Date): ApiKeyContext {
  return { services: c.get('services'), actor: { kind: 'api_key', principal }, now, outbox: c.get('outbox'), companyId: principal.companyId };
}

/**
 * A request that names no one until its verb checks the credential it carries (an API key to
 * exchange for a token, a signed download link): its verb reads, and commits no side effect.
 */
export function anonymousContext(c: Context<AppEnv>): ReadContext {
  const services = c.get('services');
  return { services, now: services.clock.now() };
}
