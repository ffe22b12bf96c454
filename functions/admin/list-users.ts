import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { listUsers } from '../../src/domain/companies/list-company-records.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { adminSecurity, companyIdParam, UserRecord } from './admin-schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/admin/v1/companies/{companyId}/users',
  operationId: 'adminListUsers',
  tags: ['Admin'],
  summary: 'List the users of a company',
  security: adminSecurity,
  request: { params: companyIdParam, query: paginationQuery },
  responses: {
    200: jsonContent(listOf(UserRecord), 'One page, newest first.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'company_not_found'),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { companyId } = c.req.valid('param');
  const { page, per_page } = c.req.valid('query');
  const services = c.get('services');
  await requireCompany(services, companyId);
  return c.json(await listUsers(services, companyId, page, per_page), 200);
};
