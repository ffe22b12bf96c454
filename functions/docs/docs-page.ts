/**
 * The API reference at `/docs`: Redoc, served by the service itself (public/static/vendor/redoc/,
 * copied there at install), rendering the service's own `GET /v1/openapi.json`. The page is a
 * fixed shell with no script of its own: Redoc's standalone bundle starts itself on the `<redoc>`
 * element and fetches the document its `spec-url` names.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../../src/http/app-env.js';

export const REDOC_SCRIPT_PATH = '/static/vendor/redoc/redoc.standalone.js';

/**
 * Nothing from another origin, and only what Redoc needs beyond our own files:
 * - `style-src 'unsafe-inline'`: Redoc draws with styled-components, which writes its rules into
 *   `<style>` elements it makes at run time, and React sets `style` attributes; neither can carry
 *   a hash or nonce. The page shows only our own document, and `script-src 'self'` still keeps
 *   any script but ours from running.
 * - `worker-src blob:`: the search index runs in a worker Redoc makes from a Blob of its own code.
 * - `img-src data:`: Redoc's icons are inline SVG data URLs.
 * - `connect-src 'self'`: the OpenAPI document.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'worker-src blob:',
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const docsPageHeaders: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  // Checked again on each visit, so a deploy's new bundle and document show at once.
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': DOCS_CSP,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>E-Signing API reference</title>
<!-- No icon: the browser would otherwise ask for /favicon.ico, which is not found. -->
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/v1/openapi.json"></redoc>
<script src="${REDOC_SCRIPT_PATH}"></script>
</body>
</html>
`;

export const docsRoutes = new Hono<AppEnv>();

docsRoutes.get('/', (c) => c.body(page, 200, docsPageHeaders));
