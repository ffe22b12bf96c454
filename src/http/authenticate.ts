import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type TokenClaims, verifyAccessToken } from '../domain/auth/access-tokens.js';
import { loadPrincipal } from '../domain/auth/load-principal.js';
import { type Scope, authorize } from '../domain/auth/scopes.js';
import { DomainError } from '../errors.js';
import { ApiError } from './api-error.js';
import type { RateRule } from '../ports/rate-limiter.js';
import type { AppEnv } from './app-env.js';
import { applyRate } from './rate-limit.js';
import { noteCompany } from './request-log.js';

const unauthorized = (message: string) => new ApiError('unauthorized', message);

/** Whose data a route reads: the company and key of the verified token, or of the checked principal. */
export type ReadScope = { companyId: string; apiKeyId: string };

/**
 * A route's reads, started by the guard as soon as the token is verified, in the same network wave
 * as the key lookup and the rate limit. They are scoped by the token's company, which our signature
 * vouches for, and dropped unused if the key turns out revoked or short of the scope: nothing is
 * shown before the checks pass. `get` gives the handler what was read, typed; a DomainError the reads
 * threw (a 404) is thrown again; reads that failed otherwise (a request the validator will refuse, a
 * database hiccup) or never ran are made again, now, with the principal's scope.
 */
export type Preload<T> = {
  run(c: Context<AppEnv>, scope: ReadScope): Promise<void>;
  get(c: Context<AppEnv>): Promise<T>;
  /** Called once the request is answered, whatever the answer: `settle` of the reads, if any. */
  settle(c: Context<AppEnv>): Promise<void>;
};

type Outcome<T> = { value: T } | { error: DomainError };

export function preload<T>(
  load: (c: Context<AppEnv>, scope: ReadScope) => Promise<T>,
  options: { settle?: (value: T) => Promise<void> } = {},
): Preload<T> {
  const outcomes = new WeakMap<Request, Outcome<T>>();
  const loaded = new WeakMap<Request, T>(); // every value read, by the guard or by the handler
  const remember = (c: Context<AppEnv>, value: T) => {
    loaded.set(c.req.raw, value);
    return value;
  };
  return {
    run: async (c, scope) => {
      try {
        outcomes.set(c.req.raw, { value: remember(c, await load(c, scope)) });
      } catch (err) {
        if (err instanceof DomainError) outcomes.set(c.req.raw, { error: err });
      }
    },
    get: async (c) => {
      const outcome = outcomes.get(c.req.raw);
      if (outcome && 'value' in outcome) return outcome.value;
      if (outcome) throw outcome.error;
      return remember(c, await load(c, c.get('principal')));
    },
    settle: async (c) => {
      const value = loaded.get(c.req.raw);
      if (value !== undefined && options.settle) await options.settle(value);
    },
  };
}

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
 * The checks every `/v1` endpoint with a scope makes, in order: who (401), how often (429), may
 * they (403). The key lookup, the rate limit and the route's preload run as one parallel wave.
 * `rule` is null for a route that counts its requests itself (the send, which limits sends).
 */
export function guard<T>(scope: Scope, rule: RateRule | null, reads?: Preload<T>): MiddlewareHandler<AppEnv>[] {
  return [
    createMiddleware<AppEnv>(async (c, next) => {
      const claims = await verifyBearer(c);
      const services = c.get('services');
      const [principal, decision] = await Promise.all([
        loadPrincipal(services, claims),
        rule ? services.rateLimiter.limit(rule, `${rule.name}:key:${claims.apiKeyId}`) : undefined,
        reads?.run(c, claims),
      ]);
      try {
        if (!principal) throw unauthorized('The API key behind this access token was revoked or rotated.');
        // Authenticated from here, whatever the answer (429, 403): the log line names the company.
        noteCompany(c, principal.companyId);
        if (rule && decision) applyRate(c, rule, decision);
        authorize(principal, scope);
        c.set('principal', principal);
        await next();
      } finally {
        await reads?.settle(c);
      }
    }),
  ];
}
