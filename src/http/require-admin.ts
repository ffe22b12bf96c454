import { createMiddleware } from 'hono/factory';
import { ApiError } from './api-error.js';
import { timingSafeEqual } from '../lib/crypto.js';
import type { AppEnv } from './app-env.js';

/**
 * The admin API answers only to `Authorization: Bearer <ADMIN_TOKEN>`. A service started without
 * an admin token has no admin API at all: every path under it is a plain 404.
 */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.get('services').config.adminToken;
  if (!expected) throw new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`);
  const presented = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
  if (!timingSafeEqual(presented, expected)) throw new ApiError('unauthorized', 'Send the admin token as `Authorization: Bearer <ADMIN_TOKEN>`.');
  await next();
});
