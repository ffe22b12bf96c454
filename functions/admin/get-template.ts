import { requireCompany } from '../../src/domain/companies/find-company.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { adminSecurity } from './admin-schemas.js';
import { AdminTemplate, adminTemplate, templateParams } from './template-version-schemas.js';

export const route = endpointRoute({
  operationId: 'adminGetTemplate',
  tags: ['Admin'],
  summary: 'Get a template: its latest version, and the list of its versions',
  security: adminSecurity,
  request: { params: templateParams },
  responses: {
    200: jsonContent(AdminTemplate, 'The latest version, with every version’s number, time and author.', false),
    ...errorResponses('unauthorized', 'company_not_found', 'template_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId, templateId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await adminTemplate(ctx, templateId), 200);
};
