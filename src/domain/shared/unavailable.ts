import { isDataException, valueRefusedByDatabase } from '../../data/errors.js';
import { ApiError } from '../../errors.js';
import { logError } from '../../lib/log-error.js';

/**
 * A dependency (database, Redis, queue) failed mid-send: nothing of it remains, and the caller may
 * retry. A value the database refused is the caller's to fix instead: retrying it cannot help.
 */
export function unavailable(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isDataException(err)) {
    logError('send refused by the database', err);
    return valueRefusedByDatabase();
  }
  logError('send failed', err);
  return new ApiError('service_unavailable', 'The envelope could not be sent just now; nothing was sent or charged. Retry shortly.');
}
