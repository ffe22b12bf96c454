/**
 * The admin lists of one company's records (users, API keys, envelopes): one route shape and one
 * handler, given the record's schema and the domain's list verb.
 */
import type { z } from '@hono/zod-openapi';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import type { CompanyReadContext, PageRequest } from '../../src/domain/read-context.js';
import type { Page } from '../../src/domain/shared/pagination.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';

export function companyListRoute<T extends z.ZodType>(operationId: string, summary: string, record: T) {
  return endpointRoute({
    operationId,
    tags: ['Admin'],
    summary,
    security: adminSecurity,
    request: { params: companyIdParam, query: paginationQuery },
    responses: {
      200: jsonContent(listOf(record), 'One page, newest first.', false),
      ...errorResponses('unauthorized', 'validation_failed', 'company_not_found'),
    },
  });
}

type CompanyList<T> = (ctx: CompanyReadContext, page: PageRequest) => Promise<Page<T>>;

export function companyListHandler<T>(list: CompanyList<T>): EndpointHandler<ReturnType<typeof companyListRoute>> {
  return async (c) => {
    const { companyId } = c.req.valid('param');
    const { page, per_page } = c.req.valid('query');
    const ctx = operatorContext(c, companyId);
    await requireCompany(ctx);
    return c.json(await list(ctx, { page, perPage: per_page }), 200);
  };
}
