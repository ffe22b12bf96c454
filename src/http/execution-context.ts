import type { Context } from 'hono';

/** The runtime's execution context (Workers' `waitUntil`), or undefined where there is none (Node). */
export function executionContextOf(c: Context): Context['executionCtx'] | undefined {
  try {
    return c.executionCtx;
  } catch {
    // Hono throws when the runtime gave no execution context.
    return undefined;
  }
}
