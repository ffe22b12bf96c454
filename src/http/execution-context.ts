import type { Context, ExecutionContext } from 'hono';

/** The runtime's execution context (Workers' `waitUntil`), or undefined where there is none. */
export function executionContextOf(c: Context): Context['executionCtx'] | undefined {
  try {
    return c.executionCtx;
  } catch {
    // Hono throws when the runtime gave no execution context.
    return undefined;
  }
}

/**
 * What the Node entries hand the app as its execution context. Node keeps running after an answer,
 * so there is nothing to extend; but without one, every request would ask Hono for a context it
 * does not have, and pay for the Error it throws (a stack trace, twice a send).
 * Work handed to `waitUntil` reports its own failures (see afterResponse).
 */
export const nodeExecutionContext: ExecutionContext = {
  waitUntil: () => {},
  passThroughOnException: () => {},
  props: {},
};
