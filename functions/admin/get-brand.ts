import { getBrand } from '../../src/domain/companies/brand.js';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';
import { BrandRecord } from './brand-schemas.js';

export const route = endpointRoute({
  operationId: 'adminGetBrand',
  tags: ['Admin'],
  summary: "A company's brand: display name, logo, accent colour and default e-mail message",
  security: adminSecurity,
  request: { params: companyIdParam },
  responses: {
    200: jsonContent(BrandRecord, 'The brand.', false),
    ...errorResponses('unauthorized', 'company_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await getBrand(ctx), 200);
};
