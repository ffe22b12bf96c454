import { listTemplates } from '../../src/domain/templates/list-templates.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { TemplateSummary } from './template-schemas.js';

export const route = endpointRoute({
  operationId: 'listTemplates',
  tags: ['Templates'],
  summary: 'List templates',
  security: bearerSecurity,
  middleware: guard('templates:read', rateRules.other),
  request: { query: paginationQuery },
  responses: {
    200: jsonContent(listOf(TemplateSummary), 'One page of templates, newest first.'),
    ...errorResponses(...authErrors, 'validation_failed'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { page, per_page } = c.req.valid('query');
  // The page is read while the key is checked: one round trip for both.
  const { value } = await keyChecked(c, (scope) => listTemplates(scope, { page, perPage: per_page }));
  return c.json(value, 200);
};
