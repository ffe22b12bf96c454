import { z } from '@hono/zod-openapi';
import { revokeApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, apiKeyIdParam } from './admin-schemas.js';

export const route = endpointRoute({
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

export const handler: EndpointHandler<typeof route> = async (c) => c.json(await revokeApiKey(operatorContext(c), { apiKeyId: c.req.valid('param').id }), 200);
