import { createRoute, type RouteHandler, z } from '@hono/zod-openapi';
import { revokeApiKey } from '../../src/domain/auth/manage-api-keys.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, apiKeyIdParam } from './admin-schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/admin/v1/api-keys/{id}/revoke',
  operationId: 'adminRevokeApiKey',
  tags: ['Admin'],
  summary: 'Revoke an API key: the key and its tokens stop working at once',
  security: adminSecurity,
  request: { params: apiKeyIdParam },
  responses: {
    200: jsonContent(z.object({ id: z.string(), revoked_at: z.string() }), 'The key is revoked.', false),
    ...errorResponses('unauthorized', 'api_key_not_found'),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json(await revokeApiKey(c.get('services'), c.req.valid('param').id), 200);
