import type { Context } from 'hono';
import { executionContextOf } from './execution-context.js';

/**
 * Work that follows the answer instead of delaying it (relaying a send's outbox to the queue). It
 * starts once the answer has been handed back, so none of its round trips is on the request's
 * path; on Workers the runtime is asked to keep the isolate alive for it, Node keeps running
 * anyway. The work must not throw: nothing is left to report its failure to.
 */
export function afterResponse(c: Context, task: () => Promise<void>): void {
  const work = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(task);
  executionContextOf(c)?.waitUntil(work);
}
