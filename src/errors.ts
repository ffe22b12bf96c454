/**
 * The one error type of the service: a code from one closed list, a message and details, and,
 * when the caller may simply try again later, after how long. It says nothing of HTTP: the edge
 * maps each code to its status (src/http/error-status.ts) and builds the one error body.
 */
export type ErrorCode =
  // The send's and the signing links' codes (docs/api-reference.md).
  | 'quota_exceeded'
  | 'template_not_found'
  | 'unknown_signer_role'
  | 'sender_not_found'
  | 'validation_failed'
  | 'rate_limited'
  | 'signing_links_disabled'
  | 'envelope_not_found'
  // The codes of authentication, permissions and the other endpoints (docs/api-guide.md, "Errors").
  | 'unauthorized'
  | 'invalid_api_key'
  | 'insufficient_scope'
  | 'permission_denied'
  | 'not_found'
  | 'method_not_allowed'
  | 'webhook_not_found'
  /** The same URL is already subscribed in the company: one subscription per URL, events in it. */
  | 'webhook_exists'
  /** A redelivery named a delivery the subscription does not have. */
  | 'delivery_not_found'
  /** A replay of the subscription is still handing out its events; one runs at a time. */
  | 'replay_in_progress'
  /** The company has as many live webhook subscriptions as it may (docs/webhooks.md, "Limits"). */
  | 'webhook_limit_reached'
  /** A redelivery asked while the delivery, or a redelivery of its event, is still queued or running. */
  | 'delivery_pending'
  /** A webhook's download link that names nothing: altered, cut, or for another envelope. */
  | 'document_not_found'
  /** A webhook's download link past its 24 hours. */
  | 'download_link_expired'
  | 'contact_exists'
  /** The company keeps the most contacts it may (CONTACTS_PER_COMPANY). */
  | 'contact_limit_reached'
  | 'idempotency_key_reused'
  | 'idempotency_request_in_progress'
  | 'payload_too_large'
  // The admin API's own.
  | 'company_not_found'
  | 'user_not_found'
  | 'api_key_not_found'
  | 'invalid_document'
  | 'conflict'
  | 'internal_error'
  /** A dependency (database, Redis, queue) failed; nothing was changed, and the call may be retried. */
  | 'service_unavailable';

export type ErrorBody = { error: { code: ErrorCode; message: string; details: Record<string, unknown> } };

export class DomainError extends Error {
  /**
   * When the same call may succeed later (a rate limit, a twin still running), how many seconds on:
   * told in the details as `retry_after_seconds` too, so the body and the edge's header agree.
   */
  readonly retryAfterSeconds?: number;
  readonly details: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.details = details;
    if (options.retryAfterSeconds !== undefined) {
      this.retryAfterSeconds = options.retryAfterSeconds;
      this.details = { ...details, retry_after_seconds: options.retryAfterSeconds };
    }
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** One problem of a `validation_failed` answer: where (a dotted path into the input) and what. */
export type Issue = { path: string; message: string };

export const validationFailed = (issues: Issue[], message = 'The request is not valid.') => new DomainError('validation_failed', message, { issues });
