import { z } from '@hono/zod-openapi';
import { rotateApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, apiKeyIdParam } from './admin-schemas.js';

export const route = endpointRoute({
  operationId: 'adminRotateApiKey',
  tags: ['Admin'],
  summary: 'Rotate an API key: a new secret, and the old key and its tokens stop working at once',
  security: adminSecurity,
  request: { params: apiKeyIdParam },
  responses: {
    200: jsonContent(z.object({ id: z.string(), key: z.string(), prefix: z.string() }), 'The new plain key, shown once.', false),
    ...errorResponses('unauthorized', 'api_key_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => c.json(await rotateApiKey(operatorContext(c), { apiKeyId: c.req.valid('param').id }), 200);
