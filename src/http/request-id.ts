import { randomBase62 } from '../lib/crypto.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * A caller's own id is kept only when it is harmless in a header and a log line: a short run of
 * characters that cannot break either (no spaces, quotes, CR or LF). Anything else is replaced,
 * not refused: the id is there to help the caller, never a reason to fail the request.
 */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

export const isWellFormedRequestId = (value: string) => WELL_FORMED.test(value);

/** The id of a request: the caller's `X-Request-Id` when well formed, else one made here. */
export function requestIdFor(presented: string | undefined): string {
  return presented !== undefined && isWellFormedRequestId(presented) ? presented : `req_${randomBase62(22)}`;
}
