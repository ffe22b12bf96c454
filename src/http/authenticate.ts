import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type TokenClaims, verifyAccessToken } from '../domain/auth/access-tokens.js';
import { loadPrincipal } from '../domain/auth/load-principal.js';
import { type Scope, authorize } from '../domain/auth/scopes.js';
import { ApiError } from '../errors.js';
import type { RateRule } from '../ports/rate-limiter.js';
import type { AppEnv } from './app-env.js';
import { applyRate } from './rate-limit.js';

const unauthorized = (message: string) => new ApiError('unauthorized', message);

/**
 * Reads a route may start as soon as the token is verified, in parallel with the key lookup: they
 * are scoped by the token's company, which our signature vouches for, and are dropped unused if
 * the key turns out revoked or short of the scope. `of` gives the handler what was read, typed;
 * nothing when the preload failed, and the handler then reads for itself.
 */
export type Preload<T> = {
  run(c: Context<AppEnv>, claims: TokenClaims): Promise<void>;
  of(c: Context<AppEnv>): T | undefined;
};

export function preload<T>(load: (c: Context<AppEnv>, claims: TokenClaims) => Promise<T | undefined>): Preload<T> {
  const results = new WeakMap<Request, T>();
  return {
    run: async (c, claims) => {
      const result = await load(c, claims).catch(() => undefined);
      if (result !== undefined) results.set(c.req.raw, result);
    },
    of: (c) => results.get(c.req.raw),
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
export function guard(scope: Scope, rule: RateRule | null, preloads?: Preload<unknown>): MiddlewareHandler<AppEnv>[] {
  return [
    createMiddleware<AppEnv>(async (c, next) => {
      const claims = await verifyBearer(c);
      const services = c.get('services');
      const [principal, decision] = await Promise.all([
        loadPrincipal(services, claims),
        rule ? services.rateLimiter.limit(rule, `${rule.name}:key:${claims.apiKeyId}`) : undefined,
        preloads?.run(c, claims),
      ]);
      if (!principal) throw unauthorized('The API key behind this access token was revoked or rotated.');
      if (rule && decision) applyRate(c, rule, decision);
      authorize(principal, scope);
      c.set('principal', principal);
      await next();
    }),
  ];
}
