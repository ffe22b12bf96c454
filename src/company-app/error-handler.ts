/**
 * What a failure under `/app` answers: a page, never the API's JSON. The log names the route's
 * pattern, never the path: a sign-in link's token is in its path.
 */
import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { DomainError } from '../errors.js';
import { requestIdOf } from '../http/request-log.js';
import { logError } from '../lib/log-error.js';
import type { CompanyAppEnv } from './app-env.js';
import { errorPage, tooLargePage } from './html/notice-pages.js';
import { appMessages } from './messages.js';
import { appPageHeaders } from './security.js';

export const appErrorHandler: ErrorHandler<CompanyAppEnv> = (err, c) => {
  if (err instanceof HTTPException && err.status === 413) return c.html(tooLargePage(appMessages()), 413, appPageHeaders);
  const retryable = err instanceof DomainError && err.code === 'service_unavailable';
  let route = '/app/…';
  try {
    route = c.req.routePath;
  } catch {}
  logError(
    `${retryable ? 'a dependency failed' : 'unhandled error'} on ${c.req.method} ${route} (request ${requestIdOf(c) ?? 'without id'})`,
    retryable ? (err.cause ?? err) : err,
  );
  // Also when the guard itself failed (the session's read), before it could set them.
  return c.html(errorPage(appMessages(), retryable), retryable ? 503 : 500, appPageHeaders);
};
