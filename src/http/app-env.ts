import type { Principal } from '../domain/auth/principal.js';
import type { Services } from '../services.js';

/** The Hono environment shared by every handler: services for all, a principal once authenticated. */
export type AppEnv = {
  Variables: {
    services: Services;
    principal: Principal;
  };
};
