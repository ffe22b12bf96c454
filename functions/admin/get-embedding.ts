import { getEmbedding } from '../../src/domain/companies/embedding.js';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';
import { EmbeddingRecord } from './embedding-schemas.js';

export const route = endpointRoute({
  operationId: 'adminGetEmbedding',
  tags: ['Admin'],
  summary: "The origins allowed to show a company's signing pages in a frame",
  security: adminSecurity,
  request: { params: companyIdParam },
  responses: {
    200: jsonContent(EmbeddingRecord, 'The list; empty when no origin may frame the pages.', false),
    ...errorResponses('unauthorized', 'company_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await getEmbedding(ctx), 200);
};
