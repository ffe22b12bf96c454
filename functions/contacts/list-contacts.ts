import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { listContacts } from '../../src/domain/contacts/list-contacts.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { guard } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { ContactRecord } from './contact-schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/contacts',
  operationId: 'listContacts',
  tags: ['Contacts'],
  summary: 'List contacts',
  security: bearerSecurity,
  middleware: guard('contacts:read', rateRules.other),
  request: { query: paginationQuery },
  responses: {
    200: jsonContent(listOf(ContactRecord), 'One page of contacts, newest first.'),
    ...errorResponses(...authErrors, 'validation_failed'),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { page, per_page } = c.req.valid('query');
  return c.json(await listContacts(c.get('services'), c.get('principal').companyId, page, per_page), 200);
};
