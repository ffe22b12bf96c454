import type { SigningOrder } from '../../data/schema.js';

/**
 * Of the signers still to act, those whose turn it is: all of them in parallel; in sequence, those
 * of the lowest order left. Scheduled reminders and the reminder by hand ask the same ones.
 */
export function whoseTurn<R extends { order: number }>(waiting: readonly R[], signingOrder: SigningOrder): R[] {
  if (signingOrder !== 'sequential' || waiting.length === 0) return [...waiting];
  const first = Math.min(...waiting.map((r) => r.order));
  return waiting.filter((r) => r.order === first);
}
