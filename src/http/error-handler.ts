import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnreachable, isDataException, valueRefusedByDatabase } from '../data/errors.js';
import { DomainError } from '../errors.js';
import { logError } from '../lib/log-error.js';
import { ApiError } from './api-error.js';
import { errorStatus } from './error-status.js';
import { requestIdOf } from './request-log.js';

/** Turns anything thrown into the one error body; never a stack trace or an internal message. */
export const handleError: ErrorHandler = (err, c) => {
  const error = toDomainError(err);
  // The request's id ties the error to its log line and to the answer the client holds.
  const where = () => `${c.req.method} ${c.req.routePath} (request ${requestIdOf(c) ?? 'without id'})`;
  if (errorStatus[error.code] === 500) logError(`unhandled error on ${where()}`, err);
  // Logged too: validation let the value through, and that gap is ours to close.
  else if (isDataException(err)) logError(`the database refused a value on ${where()}`, err);
  return respondWithError(c, error);
};

export const handleNotFound: NotFoundHandler = (c) => respondWithError(c, new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`));

/** The one error body, at the status the table gives the code. */
export function respondWithError(c: Context, error: DomainError): Response {
  if (error instanceof ApiError) for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  // Errors a client should retry later (rate limits, a twin still running) say when.
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  return c.json(error.toBody(), errorStatus[error.code]);
}

function toDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  if (err instanceof HTTPException) {
    // Hono's own validators throw these for bodies that cannot even be parsed.
    if (err.status === 400 || err.status === 415) {
      const message = err.status === 415 ? 'The body is not of a content type this endpoint takes (see its OpenAPI entry).' : 'The body could not be parsed.';
      return new ApiError('validation_failed', message, { issues: [{ path: '', message }] });
    }
    if (err.status === 413) return payloadTooLarge();
  }
  if (isDataException(err)) return valueRefusedByDatabase();
  if (isDatabaseUnreachable(err)) return databaseUnreachable();
  return new ApiError('internal_error', 'Something went wrong on our side.');
}

export const payloadTooLarge = (limit = '1 MiB') => new ApiError('payload_too_large', `The request body is larger than ${limit}.`, { limit });

/** Nothing the client sent is at fault, so it may send the same again once the database is back. */
const databaseUnreachable = () =>
  new ApiError('service_unavailable', 'The service cannot reach its database just now. Retry shortly.', {}, { 'Retry-After': '5' });
