/**
 * The company application (`{BASE_URL}/app`): a company's people, signed in with a session, see
 * and manage their company. HTML for people, so a plain Hono app with its own errors, body limit
 * and security (security.ts), built like the signing page. The routing table
 * (functions/routes.ts) names its endpoints, relative to where it mounts the app.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { CompanyAppEnv } from './app-env.js';
import { appErrorHandler } from './error-handler.js';
import { methodNotAllowedPage, notFoundPage, tooLargePage } from './html/notice-pages.js';
import { appMessages } from './messages.js';
import { appGuard } from './security.js';

/** Forms of a few fields; an endpoint that takes a file (the settings' logo) says its own. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * An endpoint of the application: its path relative to `/app`, its method and its handler, and
 * the largest body it takes when that is not MAX_FORM_BYTES.
 */
export type AppPageRoute = [
  path: string,
  method: 'GET' | 'POST',
  handler: (c: Context<CompanyAppEnv>) => Promise<Response>,
  options?: { maxBodyBytes: number },
];

const limitOf = (maxSize: number) => bodyLimit({ maxSize, onError: (c) => c.html(tooLargePage(appMessages()), 413) });

/**
 * The end of a request's path that a route's path matches, a parameter (`:id`) standing for one
 * segment: the limits are chosen before routing, where the app does not know its mount point.
 */
export function pathEndPattern(path: string): RegExp {
  const segments = path.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`${segments.join('/')}$`);
}

export function companyApp(routes: AppPageRoute[]): Hono<CompanyAppEnv> {
  const app = new Hono<CompanyAppEnv>();
  app.onError(appErrorHandler);
  // Each body is limited before the guard reads it: by its route's own limit, else by the forms'.
  const formLimit = limitOf(MAX_FORM_BYTES);
  const ownLimits = routes
    .filter((route) => route[3])
    .map(([path, method, , options]) => ({ pattern: pathEndPattern(path), method, limit: limitOf(options!.maxBodyBytes) }));
  app.use('/*', (c, next) => {
    // The app is mounted under `/app`: a route's own path is the end of the request's.
    const own = ownLimits.find((route) => route.method === c.req.method && route.pattern.test(c.req.path));
    return (own?.limit ?? formLimit)(c, next);
  });
  app.use('/*', appGuard);
  for (const [path, method, handler] of routes) app.on(method, path, handler);

  for (const path of new Set(routes.map(([path]) => path))) {
    const allowed = routes.filter((route) => route.at(0) === path).map(([, method]) => method);
    const allow = allowed.includes('GET') ? ['GET', 'HEAD', ...allowed.filter((method) => method !== 'GET')] : allowed;
    app.all(path, (c) => c.html(methodNotAllowedPage(appMessages()), 405, { Allow: allow.join(', ') }));
  }
  app.all('/*', (c) => c.html(notFoundPage(appMessages()), 404));
  return app;
}
