import { createCompany } from '../../src/domain/companies/create-company.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, CompanyInput, CompanyRecord } from './admin-schemas.js';

export const route = endpointRoute({
  operationId: 'adminCreateCompany',
  tags: ['Admin'],
  summary: 'Create a company with its plan quota and brand',
  security: adminSecurity,
  request: { body: jsonBody(CompanyInput) },
  responses: {
    201: jsonContent(CompanyRecord, 'The new company.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'conflict'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => c.json(await createCompany(operatorContext(c), c.req.valid('json')), 201);
