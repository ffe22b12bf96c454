import { putEmbedding } from '../../src/domain/companies/embedding.js';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';
import { EmbeddingInput, EmbeddingRecord } from './embedding-schemas.js';

export const route = endpointRoute({
  operationId: 'adminPutEmbedding',
  tags: ['Admin'],
  summary: "Set the origins allowed to show a company's signing pages in a frame (embedded signing)",
  description:
    "The signing page's `Content-Security-Policy: frame-ancestors` lists exactly these origins (`'none'` when there are none), " +
    'and the page sends `postMessage` events to the one its link names with `?embed_origin=`.',
  security: adminSecurity,
  request: { params: companyIdParam, body: jsonBody(EmbeddingInput) },
  responses: {
    200: jsonContent(EmbeddingRecord, 'The list, as it now is.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'company_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await putEmbedding(ctx, { raw: c.req.valid('json').allowed_origins }), 200);
};
