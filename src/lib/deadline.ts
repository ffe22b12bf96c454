/**
 * How long one call of the PDF work (a finished PDF, a template's page sizes) may take before it
 * fails: far beyond a long document with several signers on a slow machine.
 */
export const DEFAULT_PDF_DEADLINE_MS = 60_000;

/** Work that was given up on because it did not finish in its time. */
export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
  constructor(
    what: string,
    readonly ms: number,
  ) {
    super(`${what} did not finish within ${ms} ms.`);
  }
}

/**
 * The work's result, or DeadlineExceeded once `ms` have passed. The work itself is not stopped:
 * the caller ends it where it can (a thread terminated) or leaves it to the platform's own limit.
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(what, ms)), ms);
    // On Node, a deadline alone does not keep a stopping process alive.
    (timer as { unref?: () => void }).unref?.();
  });
  // A late failure of work given up on has nobody left to hear it.
  work.catch(() => {});
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
