import { ApiError } from '../../errors.js';
import { logError } from '../../lib/log-error.js';

/** A dependency (database, Redis, queue) failed mid-send: nothing of it remains, and the caller may retry. */
export function unavailable(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  logError('send failed', err);
  return new ApiError('service_unavailable', 'The envelope could not be sent just now; nothing was sent or charged. Retry shortly.');
}
