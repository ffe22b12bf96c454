/**
 * The signing page's static files on the embedded server (`npm start`): `public/static/`, with the
 * headers the Worker's static assets get from `public/_headers`. On Workers these files never
 * reach the app; Cloudflare serves them before the Worker runs.
 */
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { handleNotFound } from '../http/error-handler.js';
import { staticFileHeaders } from '../signing-page/security.js';

export const publicRoot = fileURLToPath(new URL('../../public', import.meta.url));

export function staticFiles(root = publicRoot) {
  const app = new Hono();
  app.notFound(handleNotFound);
  app.use('/static/*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(staticFileHeaders(c.req.path))) c.res.headers.set(name, value);
  });
  app.use('/static/*', serveStatic({ root }));
  return app;
}

/** Whether a request is for a static file, which the Node entry answers before the app. */
export const isStaticPath = (request: Request) => new URL(request.url).pathname.startsWith('/static/');
