import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { adminEndpoints, v1Endpoints } from '../functions/routes.js';
import { registerWebhookDocs } from '../functions/webhooks/webhook-events-doc.js';
import { signingRoutes } from '../functions/signing/signing-routes.js';
import { ApiError } from './errors.js';
import type { AppEnv } from './http/app-env.js';
import { handleError, handleNotFound, payloadTooLarge } from './http/error-handler.js';
import { describeErrorCodes } from './http/error-codes-doc.js';
import { requireAdmin } from './http/require-admin.js';
import { validationHook } from './http/validation-hook.js';
import type { Services } from './services.js';

const MiB = 1024 * 1024;

type Endpoint = { route: { method: string; path: string }; handler: unknown };

/** The one app both entries serve: Node (embedded and tests) and the Worker (production). */
export function createApp(services: Services) {
  const root = new Hono<AppEnv>();
  root.onError(handleError);
  root.notFound(handleNotFound);
  root.use('*', async (c, next) => {
    c.set('services', services);
    await next();
  });
  root.use('/v1/*', bodyLimit({ maxSize: MiB, onError: () => Promise.reject(payloadTooLarge()) }));
  // Template PDFs are uploaded through the admin API, hence its larger allowance.
  // Who is asking comes first on the admin API, so a stranger learns nothing from its size limit.
  root.use('/admin/*', requireAdmin);
  root.use('/admin/*', bodyLimit({ maxSize: 20 * MiB, onError: () => Promise.reject(payloadTooLarge('20 MiB')) }));

  const v1 = mount(v1Endpoints);
  v1.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registerWebhookDocs(v1 as never);
  serveDocument(v1, '/v1/openapi.json', () =>
    v1.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'E-Signing API', version: '1.0.0', description: describeErrorCodes() },
      servers: [{ url: services.config.baseUrl }],
    }),
  );

  const admin = mount(adminEndpoints);
  admin.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', { type: 'http', scheme: 'bearer' });
  serveDocument(admin, '/admin/v1/openapi.json', () =>
    admin.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'E-Signing API: admin', version: '1.0.0' },
      servers: [{ url: services.config.baseUrl }],
    }),
  );

  root.route('/', v1);
  root.route('/', admin);
  // The signing page behind the links: HTML with its own body limit, errors and security headers.
  root.route('/', signingRoutes);
  return root;
}

/**
 * Serves an OpenAPI document built once, on its first request: it describes routes that never
 * change while the app runs, and building it takes milliseconds of CPU.
 */
function serveDocument(app: OpenAPIHono<AppEnv>, path: string, build: () => object) {
  let body: string | undefined;
  app.get(path, (c) => {
    body ??= JSON.stringify(build());
    return c.body(body, 200, { 'content-type': 'application/json' });
  });
}

/** Mounts endpoints, then answers other methods on their paths with `405 method_not_allowed`. */
function mount(endpoints: Endpoint[]) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const allowed = new Map<string, string[]>();
  for (const { route, handler } of endpoints) {
    app.openapi(route as never, handler as never);
    const path = route.path.replaceAll(/\{(\w+)\}/g, ':$1');
    allowed.set(path, [...(allowed.get(path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of allowed) {
    app.all(path, () => {
      throw new ApiError('method_not_allowed', `Use ${methods.join(' or ')} on this path.`, { allowed: methods }, { Allow: methods.join(', ') });
    });
  }
  return app;
}
