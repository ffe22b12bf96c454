/**
 * The one table from error code to HTTP status. The error handler answers with it and the OpenAPI
 * document lists each operation's errors from it, so the documented statuses cannot drift from the
 * real ones. `satisfies` makes every code of the domain's list need a status here, and no other.
 */
import type { ErrorCode } from '../errors.js';

export const errorStatus = {
  // The send's and the signing links' codes (docs/api-reference.md).
  quota_exceeded: 402,
  template_not_found: 404,
  unknown_signer_role: 422,
  sender_not_found: 422,
  validation_failed: 422,
  rate_limited: 429,
  signing_links_disabled: 403,
  envelope_not_found: 404,
  // The codes of authentication, permissions and the other endpoints (docs/api-guide.md, "Errors").
  unauthorized: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  webhook_not_found: 404,
  webhook_exists: 409,
  delivery_not_found: 404,
  replay_in_progress: 409,
  webhook_limit_reached: 422,
  delivery_pending: 409,
  document_not_found: 404,
  download_link_expired: 410,
  contact_exists: 409,
  contact_limit_reached: 422,
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
  service_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export type ErrorStatus = (typeof errorStatus)[ErrorCode];
