import { listCompanies } from '../../src/domain/companies/list-company-records.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { adminSecurity, CompanyRecord } from './admin-schemas.js';

export const route = endpointRoute({
  operationId: 'adminListCompanies',
  tags: ['Admin'],
  summary: 'List companies',
  security: adminSecurity,
  request: { query: paginationQuery },
  responses: {
    200: jsonContent(listOf(CompanyRecord), 'One page, newest first.', false),
    ...errorResponses('unauthorized', 'validation_failed'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { page, per_page } = c.req.valid('query');
  return c.json(await listCompanies(operatorContext(c), { page, perPage: per_page }), 200);
};
