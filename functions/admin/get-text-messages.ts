import { requireCompany } from '../../src/domain/companies/find-company.js';
import { getTextMessageCountries } from '../../src/domain/companies/text-message-countries.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';
import { TextMessagesRecord } from './text-message-schemas.js';

export const route = endpointRoute({
  operationId: 'adminGetTextMessages',
  tags: ['Admin'],
  summary: "The countries a company's verification codes may be texted to",
  security: adminSecurity,
  request: { params: companyIdParam },
  responses: {
    200: jsonContent(TextMessagesRecord, 'The list; null when every country is allowed.', false),
    ...errorResponses('unauthorized', 'company_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await getTextMessageCountries(ctx), 200);
};
