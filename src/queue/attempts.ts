/**
 * What one attempt of a queue job may take, and how its failure is told: the same on both stacks,
 * so that a job is declared dead after the same attempts, with the same kind of record.
 */

/** Retries after the first attempt; the embedded queue and the QStash callback count the same. */
export const QUEUE_RETRIES = 5;

/**
 * How long one attempt may run before it counts as failed. An attempt that never settles would
 * otherwise hold its message for ever; it is left to finish on its own, and its message is retried.
 */
export const ATTEMPT_DEADLINE_MS = 120_000;

/** The longest failure text kept with a job. */
export const FAILURE_TEXT_LIMIT = 1000;

/**
 * Why an attempt failed, as a short line: the error's name and message, cut to
 * FAILURE_TEXT_LIMIT. A query error's message holds its parameters, so only the driver's cause
 * is told for it.
 */
export function failureText(err: unknown): string {
  let text: string;
  if (!(err instanceof Error)) text = String(err);
  else if ('params' in err && 'query' in err) {
    const cause = (err as { cause?: unknown }).cause;
    text = cause instanceof Error ? `${cause.name}: ${cause.message} (query parameters withheld)` : 'A query failed (parameters withheld).';
  } else text = `${err.name}: ${err.message}`;
  return text.length > FAILURE_TEXT_LIMIT ? `${text.slice(0, FAILURE_TEXT_LIMIT - 1)}…` : text;
}
