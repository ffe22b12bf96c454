import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';

/** The caller's address, as the runtime knows it: from the request, or from the runtime's own bindings (Node's socket). */
export const clientIpOf = (c: Context<AppEnv>) => c.get('services').clientIp(c.req.raw, c.env);
