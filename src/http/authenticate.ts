import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { verifyAccessToken } from '../domain/auth/access-tokens.js';
import { loadPrincipal } from '../domain/auth/load-principal.js';
import { type Scope, authorize } from '../domain/auth/scopes.js';
import { ApiError } from '../errors.js';
import type { AppEnv } from './app-env.js';
import { countRequest } from './rate-limit.js';
import type { RateRule } from '../ports/rate-limiter.js';

const unauthorized = (message: string) => new ApiError('unauthorized', message);

/** `Authorization: Bearer <token>` → the principal on the context, or `401 unauthorized`. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized('Send an access token as `Authorization: Bearer <token>`.');
  const services = c.get('services');
  const claims = await verifyAccessToken(services.config.tokenSecret, match[1], services.clock.now());
  if (!claims) throw unauthorized('The access token is malformed, expired or not ours.');
  const principal = await loadPrincipal(services, claims);
  if (!principal) throw unauthorized('The API key behind this access token was revoked or rotated.');
  c.set('principal', principal);
  await next();
});

/** The checks every `/v1` endpoint with a scope makes, in order: who, how often, may they. */
export function guard(scope: Scope, rule: RateRule): MiddlewareHandler<AppEnv>[] {
  return [
    authenticate,
    countRequest(rule, (c) => `key:${c.get('principal').apiKeyId}`),
    createMiddleware<AppEnv>(async (c, next) => {
      authorize(c.get('principal'), scope);
      await next();
    }),
  ];
}
