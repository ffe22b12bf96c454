/** An answer of the API that is not a success, as the service describes it: `{ error: { code, message, details } }`. */
export class ESignApiError extends Error {
  override readonly name = 'ESignApiError';
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The documented error code (`template_not_found`, `validation_failed`…): branch on this, never on the message. */
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
    /** The `Retry-After` header, in seconds, when the service sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

type ErrorBody = { error?: { code?: unknown; message?: unknown; details?: unknown } };

/**
 * The typed error of an answer. Only what the service wrote goes into it (it never echoes keys
 * or tokens); an answer that is not the service's JSON error gets a code of its own.
 */
export function apiErrorOf(response: Response, body: unknown): ESignApiError {
  const error = (body as ErrorBody | undefined)?.error;
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = response.headers.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : undefined;
  if (error && typeof error.code === 'string') {
    const details = error.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
    return new ESignApiError(response.status, error.code, typeof error.message === 'string' ? error.message : error.code, details, retryAfterSeconds);
  }
  return new ESignApiError(response.status, 'unexpected_response', `The service answered ${response.status} without an error body.`, {}, retryAfterSeconds);
}
