import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from './app-env.js';

/**
 * What an endpoint module says of its route: its validation, middleware and documentation, but not
 * where it answers. The routing table (functions/routes.ts) states each method and path, once, and
 * places the route there when it registers it: the table must route a request before it loads the
 * module that answers it.
 */
export type EndpointRoute = Omit<RouteConfig, 'method' | 'path'> & { method?: never; path?: never };

/** An endpoint's route, typed as precisely as `createRoute` types one, for its handler. */
export const endpointRoute = <R extends EndpointRoute>(route: R): R => route;

/** The handler of an endpoint's route, as the routing table places it. */
export type EndpointHandler<R extends EndpointRoute> = RouteHandler<Omit<R, 'method' | 'path'> & Pick<RouteConfig, 'method' | 'path'>, AppEnv>;
