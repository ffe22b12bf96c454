/**
 * What a company's brand puts on e-mails and the signing page, served without credentials: the
 * logo at its versioned address, and the accent colour as a stylesheet that sets `--brand-accent`
 * (the signing page's content policy takes no inline style). The page's own `--accent`, which its
 * buttons and links are drawn in at a tested contrast, is left alone. Both are named by what they hold, so they may be cached for a year.
 */
import { Hono } from 'hono';
import { logoAt } from '../../src/domain/companies/brand-look.js';
import { ApiError } from '../../src/http/api-error.js';
import type { AppEnv } from '../../src/http/app-env.js';

const cachedForever = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  // An image opened on its own is shown as one, and nothing in it runs.
  'Content-Security-Policy': "default-src 'none'; sandbox",
  // Webmail shows it from its own origin.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

const notFound = (path: string) => new ApiError('not_found', `No route for GET ${path}.`);

export const brandRoutes = new Hono<AppEnv>();

brandRoutes.get('/:companyId/logo/:version', async (c) => {
  const logo = await logoAt(c.get('services'), c.req.param('companyId'), c.req.param('version'));
  if (!logo) throw notFound(c.req.path);
  return c.body(logo.bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': logo.type, ...cachedForever });
});

brandRoutes.get('/accent/:file', (c) => {
  const colour = /^([0-9a-f]{6})\.css$/.exec(c.req.param('file'))?.[1];
  if (!colour) throw notFound(c.req.path);
  return c.body(`:root { --brand-accent: #${colour}; }\n`, 200, { 'Content-Type': 'text/css; charset=utf-8', ...cachedForever });
});
