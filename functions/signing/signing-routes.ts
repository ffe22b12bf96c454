/**
 * The signing page behind the links (`{BASE_URL}/sign/{token}`): HTML for people, not the JSON
 * API, so a plain Hono app with its own errors, body limit and security. Its paths are relative to
 * where the routing table (functions/routes.ts) mounts it.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../src/http/app-env.js';
import { signingErrorHandler } from '../../src/http/signing-errors.js';
import { pageMessages } from '../../src/http/signing-language.js';
import { invalidLinkPage, methodNotAllowedPage, tooLargePage } from '../../src/http/signing-page/notice-pages.js';
import { signingGuard } from '../../src/http/signing-security.js';
import { declineSigning } from './decline-signing.js';
import { getSigningDocument } from './get-signing-document.js';
import { showSigningPage } from './show-signing-page.js';
import { submitSignature } from './submit-signature.js';
import { checkVerificationCodeHandler as checkCode } from './check-verification-code.js';
import { sendVerificationCodeHandler as sendCode } from './send-verification-code.js';

/** Two drawn signatures at their largest (2 × 300,000 characters) and the rest of the form fit. */
const MAX_FORM_BYTES = 1024 * 1024;

export const signingRoutes = new Hono<AppEnv>();
signingRoutes.onError(signingErrorHandler);
signingRoutes.use('/*', signingGuard);
signingRoutes.use('/*', bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.html(tooLargePage(pageMessages(c)), 413) }));

const routes: [path: string, method: 'GET' | 'POST', handler: typeof showSigningPage][] = [
  ['/:token', 'GET', showSigningPage],
  ['/:token', 'POST', submitSignature],
  ['/:token/decline', 'POST', declineSigning],
  ['/:token/document.pdf', 'GET', getSigningDocument],
  ['/:token/code', 'POST', sendCode],
  ['/:token/verify', 'POST', checkCode],
];
for (const [path, method, handler] of routes) signingRoutes.on(method, path, handler);

// Other methods on those paths, and any other path of the signing pages, answer with a page too.
for (const path of new Set(routes.map(([path]) => path))) {
  const allowed = routes.filter((route) => route.at(0) === path).map(([, method]) => method);
  const allow = allowed.includes('GET') ? ['GET', 'HEAD', ...allowed.filter((method) => method !== 'GET')] : allowed;
  signingRoutes.all(path, (c) => c.html(methodNotAllowedPage(pageMessages(c)), 405, { Allow: allow.join(', ') }));
}
signingRoutes.all('/*', (c) => c.html(invalidLinkPage(pageMessages(c)), 404));
