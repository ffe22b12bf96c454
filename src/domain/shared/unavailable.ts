import { isDataException, valueRefusedByDatabase } from '../../data/errors.js';
import { DomainError } from '../../errors.js';
import { logError } from '../../lib/log-error.js';

/**
 * A dependency (database, Redis, queue) failed mid-send: nothing of it remains, and the caller may
 * retry. A value the database refused is the caller's to fix instead: retrying it cannot help.
 */
export function unavailable(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  if (isDataException(err)) {
    logError('send refused by the database', err);
    return valueRefusedByDatabase();
  }
  logError('send failed', err);
  return new DomainError('service_unavailable', 'The envelope could not be sent just now; nothing was sent or charged. Retry shortly.');
}

/**
 * A signer's change (first view, signature, decline) could not be written: it was one transaction,
 * so nothing of it remains, and the signer may simply try again. What the request itself got wrong
 * (a DomainError, a value the database refused) passes through as it is. Not logged here: the
 * signing page logs it, with the link's token masked; the failure rides along as the cause.
 */
export const signingWriteFailed = (err: unknown): unknown =>
  signerMayRetry(err, 'The change could not be recorded just now; nothing was changed. Try again shortly.');

/**
 * A signing link could not be read (the database failed): the signer may try again. Never taken
 * for an invalid link, which would tell a signer with a good link that it is not one.
 */
export const signingReadFailed = (err: unknown): unknown => signerMayRetry(err, 'The signing link could not be read just now. Try again shortly.');

/** The PDF work could not make a signer's copy of the document (it failed, or passed its deadline): nothing changed, the signer may ask again. */
export const signingDocumentFailed = (err: unknown): unknown => signerMayRetry(err, 'The document could not be prepared just now. Try again shortly.');

function signerMayRetry(err: unknown, message: string): unknown {
  if (err instanceof DomainError || isDataException(err)) return err;
  const failed = new DomainError('service_unavailable', message);
  failed.cause = err;
  return failed;
}
