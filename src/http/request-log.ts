/**
 * Every answer carries the request's id (`X-Request-Id`), and where the entry asks for it, each
 * request leaves one log line, so that an integrator can name a failed call and we can find it.
 *
 * A request may pass through several apps (the routing shell, then the endpoint's or the signing
 * page's own app, see src/app.ts): the shell makes its record, hands it on with the request, and
 * each app adds what only it knows (the route that answered, the company that was authenticated).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { RequestLog } from '../ports/request-log.js';
import type { Services } from '../services.js';
import type { AppEnv } from './app-env.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';

export type { RequestLog, RequestLogLine } from '../ports/request-log.js';

/** One JSON line on stdout: the terminal of `npm start`, and Workers Logs on the edge. */
export const jsonLineLog: RequestLog = (line) => console.log(JSON.stringify(line));

/** What the apps a request passes through learn about it. */
export type RequestRecord = {
  id: string;
  /** Set by the innermost app that answered; undefined until then. */
  route?: string | null;
  companyId: string | null;
};

/** Records handed from the routing shell to the app it forwards a request to. */
const handedOver = new WeakMap<Request, RequestRecord>();

/** The routing shell's first middleware: the id, the header on every answer, the log line. */
export function trackRequests(services: Pick<Services, 'requestLog'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const record: RequestRecord = { id: requestIdFor(c.req.header(REQUEST_ID_HEADER)), companyId: null };
    c.set('request', record);
    await next();
    try {
      c.res.headers.set(REQUEST_ID_HEADER, record.id);
    } catch {
      // Headers of a response passed through from a fetch are immutable; Hono copies it.
      c.header(REQUEST_ID_HEADER, record.id);
    }
    services.requestLog?.({
      request_id: record.id,
      method: loggedMethod(c.req.method),
      route: record.route ?? null,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      company_id: record.companyId,
    });
  };
}

/** Every app's middleware: takes up the record handed over, and notes the route that answered. */
export const followRequest: MiddlewareHandler<AppEnv> = async (c, next) => {
  const record = recordOf(c) ?? handedOver.get(c.req.raw);
  if (!record) return next();
  c.set('request', record);
  await next();
  if (record.route === undefined) record.route = answeredRoute(c);
};

/** Before the shell forwards a request: the app that answers it finds its record by the request. */
export function handOver(c: Context<AppEnv>): void {
  const record = recordOf(c);
  // The request may not be the one the record was made for: a body limit replaces it.
  if (record) handedOver.set(c.req.raw, record);
}

/** An app's not-found answer: no route matched, and the log says so. */
export function noteUnknownRoute(c: Context<AppEnv>): void {
  const record = recordOf(c);
  if (record && record.route === undefined) record.route = null;
}

/** Once the access token is verified: the company the request acts for. */
export function noteCompany(c: Context<AppEnv>, companyId: string): void {
  const record = recordOf(c);
  if (record) record.companyId = companyId;
}

/** The request's id, for error logs that should point at its log line. */
export const requestIdOf = (c: Context): string | undefined => recordOf(c)?.id;

/** Undefined in an app the shell did not hand the request to (a test's bare app). */
const recordOf = (c: Context): RequestRecord | undefined => c.get('request') as RequestRecord | undefined;

/**
 * The route that answered, as a pattern. When a middleware answered (a body limit's 413, the admin
 * guard's 401), the route it stood in front of: the first matched one after it that is not a
 * catch-all, else the catch-all itself.
 */
function answeredRoute(c: Context): string {
  const routes = matchedRoutes(c).slice(c.req.routeIndex);
  const route = routes.find(({ path }) => !path.endsWith('*')) ?? routes[0];
  return route ? asPattern(route.path) : '*';
}

/** `/sign/:token` as the OpenAPI document and docs/api-reference.md write it: `/sign/{token}`. */
const asPattern = (path: string) => path.replaceAll(/:(\w+)(\{[^}]*\})?\??/g, '{$1}');

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A method is a client's free text; only the ones the service knows reach the log. */
const loggedMethod = (method: string) => (METHODS.has(method) ? method : 'OTHER');
