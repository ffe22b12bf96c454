import { type DomainError, validationFailed } from '../errors.js';

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
export const valueRefusedByDatabase = (): DomainError =>
  validationFailed([{ path: '', message: 'A value of the request cannot be stored (such as text with a NUL character, or a number out of range).' }]);

/** Socket errors of a server that went away, was never there, or stopped answering. */
const lostConnectionCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg's own words for a connection lost or never made, which carry no code. */
const lostConnectionMessage = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;
/** What the SQL-over-HTTP client says when Neon is out of reach: no answer, or a gateway's. */
const neonOutOfReach = /^(Error connecting to database|Server error \(HTTP status 50[234]\))/;

/**
 * True when the database could not be reached, so no statement was judged at all: a refused or
 * dropped connection, a connection timeout, Postgres shutting down or out of connections (SQLSTATE
 * class 08, 57P01–57P03, 53300). The request may simply be tried again once it is back, unlike a
 * refused statement.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (sqlStates(err).some((state) => state.startsWith('08') || /^57P0[123]$/.test(state) || state === '53300')) return true;
  for (let current: unknown = err, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && lostConnectionCodes.has(code)) return true;
    if (typeof message === 'string' && lostConnectionMessage.test(message)) return true;
    if (name === 'NeonDbError' && code === undefined && typeof message === 'string' && neonOutOfReach.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
