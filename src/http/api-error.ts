/**
 * An error the edge raises itself (an unknown route, a bad admin token, a body too large): a
 * DomainError that may carry headers of its answer, as a 405's `Allow`. The domain's errors never
 * know of headers; the error handler answers both the same way.
 */
import { DomainError, type ErrorCode } from '../errors.js';

export class ApiError extends DomainError {
  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    /** Extra response headers, such as `Allow` or `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message, details);
    this.name = 'ApiError';
  }
}
