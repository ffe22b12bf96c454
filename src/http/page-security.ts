/**
 * What the service's pages for people share in their defence (the signing page, the company
 * application): the headers every page carries, the content policy's shape, and the check that a
 * form was posted from one of our own pages.
 */
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';

/** Never named to another site (addresses carry credentials: a link's token), never sniffed, never framed. */
export const pageHeaders: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/** A content policy from its directives, in order: `{ 'default-src': "'none'" }` → `default-src 'none'`. */
export const contentSecurityPolicy = (directives: Readonly<Record<string, string>>): string =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');

/**
 * Whether a post comes from a page of another site. Browsers send `Origin: null` for our pages' own
 * forms, because the pages ask them to send no referrer; `Sec-Fetch-Site: same-origin` is how those
 * are told from a sandboxed or redirected post of another site, which is also `null`.
 */
export function isCrossSitePost(c: Context<AppEnv>): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = c.req.header('origin');
  if (origin === undefined) return false;
  if (origin === 'null') return site !== 'same-origin';
  return origin !== new URL(c.get('services').config.baseUrl).origin;
}
