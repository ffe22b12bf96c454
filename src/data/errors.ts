import { ApiError, validationFailed } from '../errors.js';

/**
 * The SQLSTATE codes along an error and its causes: drivers put the code on their own error, and
 * drizzle wraps that one in `cause`.
 */
function sqlStates(err: unknown): string[] {
  const states: string[] = [];
  for (let current: unknown = err, depth = 0; current && depth < 5; depth++) {
    const code = typeof current === 'object' ? (current as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) states.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return states;
}

/** True when Postgres refused a row for a unique index (SQLSTATE 23505), whatever the driver. */
export const isUniqueViolation = (err: unknown) => sqlStates(err).includes('23505');

/**
 * True when Postgres refused a value itself (SQLSTATE class 22, data exception: a NUL in text, a
 * number out of range, a malformed uuid...). Such a value came from the caller, so it is theirs
 * to correct, not a failure of ours to retry.
 */
export const isDataException = (err: unknown) => sqlStates(err).some((state) => state.startsWith('22'));

/** The answer to a data exception. Validation should have caught the value, so no field is named. */
export const valueRefusedByDatabase = (): ApiError =>
  validationFailed([
    { path: '', message: 'A value of the request cannot be stored (such as text with a NUL character, or a number out of range).' },
  ]);
