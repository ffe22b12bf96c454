import { z } from '@hono/zod-openapi';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { emailAddress } from '../../src/http/schemas.js';
import { adminSecurity, UserInput, UserRecord } from './admin-schemas.js';

export const route = endpointRoute({
  operationId: 'adminPutUser',
  tags: ['Admin'],
  summary: 'Add a user to a company, or change one (role, active, e-signing seat)',
  security: adminSecurity,
  request: {
    params: z.object({ companyId: z.string().openapi({ format: 'uuid' }), email: emailAddress(150) }),
    body: jsonBody(UserInput),
  },
  responses: {
    200: jsonContent(UserRecord, 'The user was changed.', false),
    201: jsonContent(UserRecord, 'The user was added.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'company_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId, email } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  const { user, created } = await putUser(ctx, { email, input: c.req.valid('json') });
  return created ? c.json(user, 201) : c.json(user, 200);
};
