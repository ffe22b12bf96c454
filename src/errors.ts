/**
 * One error type and one table from error code to HTTP status. The OpenAPI document and every
 * handler read this table, so the documented statuses cannot drift from the real ones.
 */
export const errorStatus = {
  // The send's and the signing links' codes (docs/api-reference.md, sections 4.1, 4.2, 7).
  quota_exceeded: 402,
  template_not_found: 404,
  unknown_signer_role: 422,
  sender_not_found: 422,
  validation_failed: 422,
  rate_limited: 429,
  signing_links_disabled: 403,
  envelope_not_found: 404,
  // The codes of authentication, permissions and the other endpoints (README, "Errors").
  unauthorized: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  webhook_not_found: 404,
  /** The same URL is already subscribed in the company: one subscription per URL, events in it. */
  webhook_exists: 409,
  /** A redelivery named a delivery the subscription does not have. */
  delivery_not_found: 404,
  /** A replay of the subscription is still handing out its events; one runs at a time. */
  replay_in_progress: 409,
  /** A webhook's download link that names nothing: altered, cut, or for another envelope. */
  document_not_found: 404,
  /** A webhook's download link past its 24 hours. */
  download_link_expired: 410,
  contact_exists: 409,
  idempotency_key_reused: 422,
  idempotency_request_in_progress: 409,
  payload_too_large: 413,
  // The admin API's own.
  company_not_found: 404,
  user_not_found: 404,
  api_key_not_found: 404,
  invalid_document: 422,
  conflict: 409,
  internal_error: 500,
  /** A dependency (database, Redis, queue) failed; nothing was changed, and the call may be retried. */
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export type ErrorStatus = (typeof errorStatus)[ErrorCode];

export type ErrorBody = { error: { code: ErrorCode; message: string; details: Record<string, unknown> } };

export class ApiError extends Error {
  readonly status: ErrorStatus;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Extra response headers, such as `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = errorStatus[code];
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** One problem of a `validation_failed` answer: where (a dotted path into the input) and what. */
export type Issue = { path: string; message: string };

export const validationFailed = (issues: Issue[], message = 'The request is not valid.') =>
  new ApiError('validation_failed', message, { issues });
