/**
 * What every answer under `/sign/` and every static file of the signing page carries, and the
 * checks every request under `/sign/` passes before a handler runs: a rate limit (per link for a
 * genuine link, per client address for anything else), and, for posts, that the form came from
 * this service's own page.
 *
 * The signing link is a bearer credential in the page's address, so the page is never stored
 * (`no-store`), never named to another site (`no-referrer`) and never framed, except by the
 * origins its company allows for embedded signing (src/domain/companies/embedding.ts); its content
 * policy allows scripts and styles only from our own files, none inline.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { secondsUntilReset } from '../domain/shared/rate-decision.js';
import { type LinkHead, readLinkHead } from '../domain/signing/resolve-link.js';
import type { RateRule } from '../ports/rate-limiter.js';
import { clientIpOf } from '../http/client-ip.js';
import { contentSecurityPolicy, isCrossSitePost, pageHeaders } from '../http/page-security.js';
import { frameOriginsOf } from './embedding.js';
import { pageMessages } from './language.js';
import { forbiddenPage, tooManyRequestsPage } from './html/notice-pages.js';
import type { SigningEnv } from './signing-env.js';

/**
 * pdf.js needs nothing beyond this on the page: it is a module script of ours, its worker is a
 * file of ours (same origin, so no `blob:` wrapper is made), it fetches the document from us,
 * and embedded fonts reach it as bytes, not as fetched URLs. `data:` images are the drawn
 * signature's preview; `isEvalSupported: false` is passed to pdf.js so it never tries `eval`.
 */
export const SIGNING_CSP = contentSecurityPolicy({
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data: blob:",
  'connect-src': "'self'",
  'worker-src': "'self' blob:",
  'font-src': "'self'",
  'form-action': "'self'",
  'base-uri': "'none'",
  'frame-ancestors': "'none'",
});

/**
 * The pdf.js worker's own policy (a worker follows the policy its script was served with, not
 * the page's): its JPEG 2000 decoder is WebAssembly, which needs `'wasm-unsafe-eval'`. That is
 * the compilation of WebAssembly only, not `eval` of script, and only inside that worker.
 */
export const PDF_WORKER_CSP = SIGNING_CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'");
export const PDF_WORKER_PATH = '/static/vendor/pdfjs/pdf.worker.min.mjs';

const commonHeaders = pageHeaders;

export const signingPageHeaders: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': SIGNING_CSP,
  ...commonHeaders,
};

/**
 * The headers of a page whose company allows `frameOrigins` to frame it: `frame-ancestors` lists
 * exactly those, and `X-Frame-Options` goes, since it can only say DENY or SAMEORIGIN and a browser
 * that reads both would otherwise refuse the frame. With no origin allowed, they are the above.
 */
export function signingPageHeadersFor(frameOrigins: readonly string[]): Record<string, string> {
  if (frameOrigins.length === 0) return { ...signingPageHeaders };
  const { 'X-Frame-Options': _denied, ...rest } = signingPageHeaders;
  return { ...rest, 'Content-Security-Policy': SIGNING_CSP.replace("frame-ancestors 'none'", `frame-ancestors ${frameOrigins.join(' ')}`) };
}

/**
 * The static files (our script and style, pdf.js) hold nothing of the signer, so they may be
 * kept, but are checked again on each use (`no-cache`), so a deploy is picked up at once. The
 * Worker's static assets send the same through `public/_headers`.
 */
export function staticFileHeaders(path: string): Record<string, string> {
  return {
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': path === PDF_WORKER_PATH ? PDF_WORKER_CSP : SIGNING_CSP,
    ...commonHeaders,
  };
}

export const signingRateRule = { name: 'sign', limit: 60, windowMs: 15 * 60 * 1000 } as const satisfies RateRule;

/**
 * Requests whose token is not a genuine link, counted per client address: were they counted per
 * link, anyone who knows a recipient id (API answers and webhook payloads name it) could lock that
 * signer out with made-up MACs. No honest signer comes near it: a genuine link never counts here.
 */
export const unverifiedLinkRateRule = { name: 'sign-unverified', limit: 60, windowMs: 15 * 60 * 1000 } as const satisfies RateRule;

/** The link's token as the path gives it (`/sign/{token}/...`), percent-decoded like a route parameter. */
export function tokenInPath(path: string): string {
  const segment = path.split('/')[2] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A genuine link is counted by its recipient id part: the MAC part would let one link count as many. */
export const rateIdentifier = (token: string) => `sign:${(token.split('.')[0] ?? '').slice(0, 40)}`;

/** Anything else is counted by the address it came from, as the runtime knows it. */
export const unverifiedRateIdentifier = (c: Context<SigningEnv>) => `${unverifiedLinkRateRule.name}:ip:${clientIpOf(c)}`;

/**
 * The first read of the link `token` (`readLinkHead`), made once per request and shared by the
 * signing guard, which asks first, and the page it lets through, which goes on from it instead of
 * reading it again.
 */
export function linkHeadOf(c: Context<SigningEnv>, token: string): Promise<LinkHead | null> {
  const made = c.get('linkHead');
  if (made?.token === token) return made.head;
  const head = readLinkHead(c.get('services'), token);
  // Met by whoever awaits it; a request that ends before that leaves nothing unobserved.
  head.catch(() => {});
  c.set('linkHead', { token, head });
  return head;
}

/** Security headers on whatever the request ends in, the rate limit, and the cross-site check. */
export const signingGuard = createMiddleware<SigningEnv>(async (c, next) => {
  const token = tokenInPath(c.req.path);
  // Read together: the origins allowed to frame the link's pages cost no wave of their own. A read
  // that fails counts as not genuine here; the handler, awaiting the same read, meets the failure.
  const [genuine, frameOrigins] = await Promise.all([
    linkHeadOf(c, token).then(
      (head) => head !== null,
      () => false,
    ),
    frameOriginsOf(c, token),
  ]);
  const refused = await refusal(c, token, genuine);
  if (refused) c.res = refused;
  else await next();
  // Only a genuine link's pages are its company's to frame.
  c.res.headers.delete('X-Frame-Options');
  for (const [name, value] of Object.entries(signingPageHeadersFor(genuine ? frameOrigins : []))) c.res.headers.set(name, value);
  return c.res;
});

async function refusal(c: Context<SigningEnv>, token: string, genuine: boolean): Promise<Response | undefined> {
  const services = c.get('services');
  const decision = genuine
    ? await services.rateLimiter.limit(signingRateRule, rateIdentifier(token))
    : await services.rateLimiter.limit(unverifiedLinkRateRule, unverifiedRateIdentifier(c));
  if (!decision.success) {
    const retryAfter = secondsUntilReset(decision, services.clock.now());
    return c.html(tooManyRequestsPage(pageMessages(c), retryAfter), 429, { 'Retry-After': String(retryAfter) });
  }
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && isCrossSitePost(c)) return c.html(forbiddenPage(pageMessages(c)), 403);
  return undefined;
}
