import { listContacts } from '../../src/domain/contacts/list-contacts.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { ContactRecord } from './contact-schemas.js';

export const route = endpointRoute({
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

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { page, per_page } = c.req.valid('query');
  // The page is read while the key is checked: one round trip for both.
  const { value } = await keyChecked(c, (scope) => listContacts(scope, { page, perPage: per_page }));
  return c.json(value, 200);
};
