import { requireCompany } from '../../src/domain/companies/find-company.js';
import { putTextMessageCountries } from '../../src/domain/companies/text-message-countries.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';
import { TextMessagesInput, TextMessagesRecord } from './text-message-schemas.js';

export const route = endpointRoute({
  operationId: 'adminPutTextMessages',
  tags: ['Admin'],
  summary: "Set the countries a company's verification codes may be texted to",
  description:
    'Verification codes by text message (roles with `sms_code`) go only to mobile numbers of these countries: a send naming another is refused, ' +
    'and a signer whose stored number is of another gets no code. `null` allows every country again.',
  security: adminSecurity,
  request: { params: companyIdParam, body: jsonBody(TextMessagesInput) },
  responses: {
    200: jsonContent(TextMessagesRecord, 'The list, as it now is.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'company_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await putTextMessageCountries(ctx, { raw: c.req.valid('json').allowed_countries }), 200);
};
