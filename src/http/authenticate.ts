import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type TokenClaims, verifyAccessToken } from '../domain/auth/access-tokens.js';
import type { ApiKeyContext } from '../domain/auth/api-key-context.js';
import { loadPrincipal } from '../domain/auth/load-principal.js';
import { type Scope, authorize } from '../domain/auth/scopes.js';
import type { CompanyReadContext } from '../domain/read-context.js';
import { DomainError } from '../errors.js';
import type { RateRule } from '../ports/rate-limiter.js';
import { ApiError } from './api-error.js';
import type { AppEnv } from './app-env.js';
import { applyRate } from './rate-limit.js';
import { noteCompany } from './request-log.js';
import { apiKeyContext } from './verb-contexts.js';

const unauthorized = (message: string) => new ApiError('unauthorized', message);

/**
 * The check of the API key a guarded route owes, from its verified token to the route's scope and
 * rate rule; `made` once the check has started (by the handler, or, when the request fails before
 * the handler could, by the validation hook or the guard).
 */
export type KeyCheck = { claims: TokenClaims; scope: Scope; rule: RateRule | null; made?: Promise<ApiKeyContext> };

/**
 * Whose data a read made during the key check may see: the company and key of the verified token,
 * which our signature vouches for. Nothing it reads is shown before the check passes.
 */
export type TokenScope = CompanyReadContext & { apiKeyId: string };

async function verifyBearer(c: Context<AppEnv>): Promise<TokenClaims> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized('Send an access token as `Authorization: Bearer <token>`.');
  const services = c.get('services');
  const claims = await verifyAccessToken(services.config.tokenSecret, match[1], services.clock.now());
  if (!claims) throw unauthorized('The access token is malformed, expired or not ours.');
  return claims;
}

/**
 * What every `/v1` endpoint with a scope puts before its handler: the bearer token is verified here
 * (401 without a network call), and the key check it then owes, who (401), how often (429), may
 * they (403), is made by the handler with `keyChecked`, in one network wave with the handler's
 * reads. Fail closed: a request whose handler answered without the check is an error, never an
 * answer. `rule` is null for a route that counts its requests itself (the send, which limits sends).
 */
export function guard(scope: Scope, rule: RateRule | null): MiddlewareHandler<AppEnv>[] {
  return [
    createMiddleware<AppEnv>(async (c, next) => {
      const access: KeyCheck = { claims: await verifyBearer(c), scope, rule };
      c.set('access', access);
      await next();
      if (access.made) return;
      // Refused before its handler checked the key (a body that is not JSON, a handler's early
      // refusal): the key's answer comes first, as it would have had the check come first.
      if (c.error) await keyChecked(c);
      else throw new Error(`${c.req.method} ${c.req.routePath} answered without checking the API key.`);
    }),
  ];
}

type Outcome<T> = { value: T } | { error: unknown };

/**
 * The key check the guard left pending, made once: the key lookup, the rate limit and `read` in
 * one parallel wave, then in order revoked or rotated key (401), over the rate (429), short of the
 * scope or the owner's role (403), and only then what was read. A DomainError the read threw (a
 * 404) is thrown as it is; a read that failed otherwise (a database hiccup) is made again, now that
 * the key is known. Answers the context of the verbs called afterwards.
 */
export async function keyChecked(c: Context<AppEnv>): Promise<ApiKeyContext>;
export async function keyChecked<T>(c: Context<AppEnv>, read: (scope: TokenScope) => Promise<T>): Promise<{ ctx: ApiKeyContext; value: T }>;
export async function keyChecked<T>(c: Context<AppEnv>, read?: (scope: TokenScope) => Promise<T>) {
  const access = c.get('access') as KeyCheck | undefined;
  if (!access) throw new Error(`${c.req.method} ${c.req.routePath} checks an API key but has no guard.`);
  const services = c.get('services');
  const now = services.clock.now();
  const scope: TokenScope = { services, now, companyId: access.claims.companyId, apiKeyId: access.claims.apiKeyId };
  const reading = read && !access.made ? outcomeOf(read(scope)) : undefined;
  access.made ??= checkKey(c, access, now);
  const [ctx, outcome] = await Promise.all([access.made, reading]);
  if (!read) return ctx;
  if (outcome && 'value' in outcome) return { ctx, value: outcome.value };
  if (outcome && outcome.error instanceof DomainError) throw outcome.error;
  return { ctx, value: await read(scope) };
}

async function checkKey(c: Context<AppEnv>, { claims, scope, rule }: KeyCheck, now: Date): Promise<ApiKeyContext> {
  const services = c.get('services');
  const [principal, decision] = await Promise.all([
    loadPrincipal(services, claims),
    rule ? services.rateLimiter.limit(rule, `${rule.name}:key:${claims.apiKeyId}`) : undefined,
  ]);
  if (!principal) throw unauthorized('The API key behind this access token was revoked or rotated.');
  // Authenticated from here, whatever the answer (429, 403): the log line names the company.
  noteCompany(c, principal.companyId);
  if (rule && decision) applyRate(c, rule, decision);
  authorize(principal, scope);
  return apiKeyContext(c, principal, now);
}

const outcomeOf = <T>(promise: Promise<T>): Promise<Outcome<T>> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
