import { putBrand } from '../../src/domain/companies/brand.js';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';
import { BrandInput, BrandRecord, bytesOfBase64 } from './brand-schemas.js';

export const route = endpointRoute({
  operationId: 'adminPutBrand',
  tags: ['Admin'],
  summary: "Set a company's brand: the fields given are set, `null` clears one, the others are kept",
  description: 'JSON, with the logo file in base64 (`"logo": "iVBORw0…"`): a PNG or JPEG, checked by its content.',
  security: adminSecurity,
  request: { params: companyIdParam, body: jsonBody(BrandInput) },
  responses: {
    200: jsonContent(BrandRecord, 'The brand, as it now is.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'company_not_found', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const { logo, ...rest } = c.req.valid('json');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  const brand = await putBrand(ctx, { ...rest, logo: typeof logo === 'string' ? bytesOfBase64(logo) : logo });
  return c.json(brand, 200);
};
