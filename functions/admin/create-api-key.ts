import { createApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, ApiKeyCreated, ApiKeyInput, companyIdParam } from './admin-schemas.js';

export const route = endpointRoute({
  operationId: 'adminCreateApiKey',
  tags: ['Admin'],
  summary: 'Create an API key; the plain key is in this answer only',
  security: adminSecurity,
  request: { params: companyIdParam, body: jsonBody(ApiKeyInput) },
  responses: {
    201: jsonContent(ApiKeyCreated, 'The new key, shown once.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'company_not_found', 'user_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await createApiKey(ctx, c.req.valid('json')), 201);
};
