import { OpenAPIHono, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import { type Context, type Handler, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { LinearRouter } from 'hono/router/linear-router';
import type { RouteEntry } from '../functions/routes.js';
import { ApiError } from './http/api-error.js';
import type { AppEnv } from './http/app-env.js';
import { handleError, handleNotFound, payloadTooLarge } from './http/error-handler.js';
import { executionContextOf } from './http/execution-context.js';
import { followRequest, handOver, noteUnknownRoute, trackRequests } from './http/request-log.js';
import { relayAfterAnswer } from './http/relay-after-answer.js';
import { requireAdmin } from './http/require-admin.js';
import { streamedBodyLimit } from './http/streamed-body-limit.js';
import { validationHook } from './http/validation-hook.js';
import { MAX_TEMPLATE_DOCUMENT_BYTES } from './ports/document-limits.js';
import type { Services } from './services.js';

const MiB = 1024 * 1024;

/**
 * The one app both entries serve: Node (embedded and tests) and the Worker (production).
 *
 * Its routing shell knows every path and method of the table it is given (the API's is
 * functions/routes.ts; the application's Worker gives its own, so none of the API's endpoints is in
 * that Worker's bundle), and loads what answers one on its first request: an endpoint's module (its schemas, its domain code),
 * the signing pages, the OpenAPI documents. An isolate that serves only `GET /v1/contacts` never
 * evaluates the rest (the Worker's cold start).
 *
 * One app per endpoint pays for itself. Measured on 2026-11-27 against the same code with every
 * endpoint imported and registered on one OpenAPIHono, the deployed Worker's cold start to its first
 * `GET /v1/contacts` (7 runs each, alternating, medians): 671 M instructions beyond a trivial
 * Worker against 974 M (×1.45 for the one app; 957 M against 1,260 M whole), 125 ms of CPU beyond
 * it against 179 ms (×1.43). See docs/performance.md, "One app or one per endpoint".
 */
/**
 * Template PDFs are uploaded through the admin API, hence its larger allowance: the multipart body
 * of the largest PDF the import takes, with the template's JSON (MAX_TEMPLATE_JSON) beside it. The
 * PDF's own limit is the import's, told with the limit when a PDF passes it.
 */
const ADMIN_BODY_LIMIT = MAX_TEMPLATE_DOCUMENT_BYTES + 2 * MiB;

export function createApp(services: Services, table: RouteEntry[]) {
  const root = new Hono<AppEnv>({ router: quickRouter() });
  // First, so that every answer carries the request's id and is logged, whatever answered it.
  root.use('*', trackRequests(services));
  withServices(root, services);
  root.use('/v1/*', bodyLimit({ maxSize: MiB, onError: () => Promise.reject(payloadTooLarge()) }));
  // Who is asking comes first on the admin API, so a stranger learns nothing from its size limit.
  root.use('/admin/*', requireAdmin);
  // Counted as it is read where its length is not told: a chunked template import is never held whole.
  root.use(
    '/admin/*',
    streamedBodyLimit(ADMIN_BODY_LIMIT, () => payloadTooLarge(`${ADMIN_BODY_LIMIT / MiB} MiB`)),
  );

  mount(root, table, services);
  return root;
}

/**
 * Mounts pages that are loaded on the first request under `pattern` (the signing pages, the queue
 * callbacks): their own paths are relative to it (`/:token` under `/sign/*`).
 */
export function mountLater(root: Hono<AppEnv>, pattern: string, services: Services, load: () => Promise<Hono<AppEnv>>) {
  root.all(
    pattern,
    answerLater(async () => withServices(new Hono<AppEnv>(), services).route(pattern.replace(/\/\*$/, ''), await load())),
  );
}

/**
 * Mounts the routing table, in its order. Each endpoint answers through an app of its own, built on
 * its first request; other methods on its path get `405 method_not_allowed`.
 */
function mount(root: Hono<AppEnv>, table: RouteEntry[], services: Services) {
  const allowed = new Map<string, string[]>();
  for (const entry of table) {
    if (entry.kind === 'document') serveDocument(root, entry.path, () => entry.build(services));
    else if (entry.kind === 'pages') mountLater(root, entry.pattern, services, entry.load);
    else {
      const path = honoPath(entry.path);
      root.on(
        entry.method.toUpperCase(),
        path,
        answerLater(async () => endpointApp(await entry.load(), services)),
      );
      allowed.set(path, [...(allowed.get(path) ?? []), entry.method.toUpperCase()]);
    }
  }
  for (const [path, methods] of allowed) {
    root.all(path, () => {
      throw new ApiError('method_not_allowed', `Use ${methods.join(' or ')} on this path.`, { allowed: methods }, { Allow: methods.join(', ') });
    });
  }
}

/** An endpoint's route and the handler written for it. */
type RoutePair<R extends RouteConfig> = { route: R; handler: RouteHandler<R, AppEnv> };

/** One endpoint: its route's validation and middleware, then its handler, with the app's errors. */
function endpointApp<R extends RouteConfig>(endpoint: RoutePair<R>, services: Services) {
  const app = withServices(new OpenAPIHono<AppEnv>({ defaultHook: validationHook, router: quickRouter() }), services);
  app.openapi(endpoint.route, endpoint.handler);
  return app;
}

/** The app's error answers, the request's record, and the services where every handler reads them. */
function withServices<T extends Hono<AppEnv>>(app: T, services: Services): T {
  app.onError(handleError);
  app.notFound((c) => {
    noteUnknownRoute(c);
    return handleNotFound(c);
  });
  app.use('*', (c, next) => {
    c.set('services', services);
    return followRequest(c, next);
  });
  app.use('*', relayAfterAnswer);
  return app;
}

/**
 * Hands each request to the app `build` makes on the first one, with the runtime's environment and
 * context. A build that failed (a module that could not load) is tried again by the next request.
 */
function answerLater(build: () => Promise<Hono<AppEnv>>): Handler<AppEnv> {
  const app = loadOnce(build);
  return async (c: Context<AppEnv>) => {
    const answering = await app();
    handOver(c);
    return answering.fetch(c.req.raw, c.env, executionContextOf(c));
  };
}

/** Builds on first use; a build that failed is built again next time. */
function loadOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () =>
    (built ??= build().catch((err: unknown) => {
      built = undefined;
      throw err;
    }));
}

/**
 * Serves an OpenAPI document built once, on its first request: it describes routes that never
 * change while the app runs, and building it takes milliseconds of CPU.
 */
function serveDocument(root: Hono<AppEnv>, path: string, build: () => Promise<object>) {
  const body = loadOnce(async () => JSON.stringify(await build()));
  root.get(path, async (c) => c.body(await body(), 200, { 'content-type': 'application/json' }));
}

/**
 * The router of the apps built on an isolate's first request. Hono's default compiles every route
 * into one regular expression before its first match, a cost each cold isolate pays; a linear
 * router registers at no cost and matches the shell's few dozen routes in microseconds.
 */
const quickRouter = () => new LinearRouter<never>();

const honoPath = (path: string) => path.replaceAll(/\{(\w+)\}/g, ':$1');
