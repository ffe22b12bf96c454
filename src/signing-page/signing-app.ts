/**
 * The signing page behind the links (`{BASE_URL}/sign/{token}`): HTML for people, not the JSON
 * API, so a plain Hono app with its own errors, body limit and security. The routing table
 * (functions/routes.ts) names its endpoints, relative to where it mounts the app; this module
 * wraps them in what every page of a link shares.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { SigningEnv } from './signing-env.js';
import { signingErrorHandler } from './error-handler.js';
import { invalidLinkPage, methodNotAllowedPage, tooLargePage } from './html/notice-pages.js';
import { pageMessages } from './language.js';
import { signingGuard } from './security.js';

/** Two drawn signatures at their largest (2 × 300,000 characters) and the rest of the form fit. */
const MAX_FORM_BYTES = 1024 * 1024;

/** An endpoint of the signing page: its path relative to the page's mount, its method and its handler. */
export type SigningPageRoute = [path: string, method: 'GET' | 'POST', handler: (c: Context<SigningEnv>) => Promise<Response>];

export function signingApp(routes: SigningPageRoute[]): Hono<SigningEnv> {
  const app = new Hono<SigningEnv>();
  app.onError(signingErrorHandler);
  app.use('/*', signingGuard);
  app.use('/*', bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.html(tooLargePage(pageMessages(c)), 413) }));
  for (const [path, method, handler] of routes) app.on(method, path, handler);

  // Other methods on those paths, and any other path of the signing pages, answer with a page too.
  for (const path of new Set(routes.map(([path]) => path))) {
    const allowed = routes.filter((route) => route.at(0) === path).map(([, method]) => method);
    const allow = allowed.includes('GET') ? ['GET', 'HEAD', ...allowed.filter((method) => method !== 'GET')] : allowed;
    app.all(path, (c) => c.html(methodNotAllowedPage(pageMessages(c)), 405, { Allow: allow.join(', ') }));
  }
  app.all('/*', (c) => c.html(invalidLinkPage(pageMessages(c)), 404));
  return app;
}
