/**
 * A failure to reach or use a PostgreSQL, told so that a person can act on it. drizzle wraps the
 * driver's error as `Failed query: CREATE SCHEMA …`, which says nothing of the cause; the cause is
 * in its chain (`database "x" does not exist`), and for the usual first-run mistakes there is a
 * next step to give. The URL's password never appears: only host, port, user and database.
 */
type DriverError = { code?: unknown; message?: unknown; cause?: unknown };

/** Why `err` happened: the innermost message of its cause chain, and the driver's code (SQLSTATE or errno). */
function rootCause(err: unknown): { message: string; code?: string } {
  let current: unknown = err;
  let code: string | undefined;
  let message = err instanceof Error ? err.message : String(err);
  for (let depth = 0; current && typeof current === 'object' && depth < 10; depth++) {
    const { code: ownCode, message: ownMessage, cause } = current as DriverError;
    if (typeof ownCode === 'string') code = ownCode;
    if (typeof ownMessage === 'string' && ownMessage) message = ownMessage;
    // An AggregateError (every address of a host refused) holds the reasons in `errors`.
    const inner = (current as { errors?: unknown[] }).errors?.[0];
    current = cause ?? inner;
  }
  return { message, code };
}

export function describeDatabaseFailure(err: unknown, url: string): string {
  const target = new URL(url);
  const host = target.hostname || '127.0.0.1';
  const port = target.port || '5432';
  const user = decodeURIComponent(target.username) || 'postgres';
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || user;
  const { message, code } = rootCause(err);
  const where = `the PostgreSQL database "${name}" at ${host}:${port}`;
  switch (code) {
    case '3D000':
      return [
        `Cannot use ${where}: ${message}.`,
        'Create it, then start again:',
        `  createdb -h ${host} -p ${port} -U ${user} ${name}`,
        `  (or: psql -h ${host} -p ${port} -U ${user} -d postgres -c 'CREATE DATABASE "${name}"')`,
      ].join('\n');
    case '28P01':
    case '28000':
      return `Cannot use ${where}: ${message}. Check the user name and password in DATABASE_URL.`;
    case 'ECONNREFUSED':
      return `Cannot reach ${where}: nothing accepts connections at ${host}:${port} (${message}). Start PostgreSQL, or fix the host and port in DATABASE_URL.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot reach ${where}: the host name ${host} does not resolve (${message}). Fix the host in DATABASE_URL.`;
    default:
      return `Cannot use ${where}: ${message}${code ? ` (${code})` : ''}.`;
  }
}
