/**
 * Logs a failure without what it may carry of our data: drizzle's query errors put the query's
 * parameters in their message (e-mail addresses, a webhook secret being stored), so only the
 * driver's own cause is logged for them, and never a request body.
 */
export function logError(context: string, err: unknown): void {
  console.error(context, describe(err));
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if ('params' in err && 'query' in err) {
    const driver = cause instanceof Error ? `${cause.name}: ${cause.message}` : 'query failed';
    return `${driver} (code ${String((cause as { code?: unknown })?.code ?? 'unknown')}; parameters withheld)`;
  }
  const frames = err.stack?.split('\n').slice(1, 6).join('\n') ?? '';
  return `${err.name}: ${err.message}\n${frames}`;
}
