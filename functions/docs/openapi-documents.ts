/**
 * The OpenAPI documents: the public API's (`/v1/openapi.json`, which the API reference at `/docs`
 * renders) and the admin API's (`/admin/v1/openapi.json`), each of the endpoints the routing table
 * gives it, placed where the table mounts them.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../src/http/app-env.js';
import { describeErrorCodes } from '../../src/http/error-codes-doc.js';
import type { Endpoint } from '../routes.js';
import { documentLicense, documentTags } from './reference-info.js';
import { registerWebhookDocs } from '../webhooks/webhook-events-doc.js';

export function publicDocument(endpoints: Endpoint[], serverUrl: string) {
  const v1 = documented(endpoints);
  v1.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registerWebhookDocs(v1 as never);
  return v1.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: 'E-Signing API', version: '1.0.0', description: describeErrorCodes(), license: documentLicense },
    tags: documentTags,
    servers: [{ url: serverUrl }],
  });
}

export function adminDocument(endpoints: Endpoint[], serverUrl: string) {
  const admin = documented(endpoints);
  admin.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', { type: 'http', scheme: 'bearer' });
  return admin.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: 'E-Signing API: admin', version: '1.0.0' },
    servers: [{ url: serverUrl }],
  });
}

/** The endpoints registered for their documentation only. */
function documented(endpoints: Endpoint[]) {
  const app = new OpenAPIHono<AppEnv>();
  for (const { route, handler } of endpoints) app.openapi(route as never, handler as never);
  return app;
}
