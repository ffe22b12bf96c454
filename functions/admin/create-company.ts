import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { createCompany } from '../../src/domain/companies/create-company.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, CompanyInput, CompanyRecord } from './admin-schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/admin/v1/companies',
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

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json(await createCompany(c.get('services'), c.req.valid('json')), 201);
