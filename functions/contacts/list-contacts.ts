import { listContacts } from '../../src/domain/contacts/list-contacts.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, preload } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { ContactRecord } from './contact-schemas.js';

/** The page is read while the key is checked: one round trip for both. */
const contactsPage = preload((c, scope) => {
  const { page, per_page } = paginationQuery.parse(c.req.query());
  return listContacts(c.get('services'), scope.companyId, page, per_page);
});

export const route = endpointRoute({
  operationId: 'listContacts',
  tags: ['Contacts'],
  summary: 'List contacts',
  security: bearerSecurity,
  middleware: guard('contacts:read', rateRules.other, contactsPage),
  request: { query: paginationQuery },
  responses: {
    200: jsonContent(listOf(ContactRecord), 'One page of contacts, newest first.'),
    ...errorResponses(...authErrors, 'validation_failed'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => c.json(await contactsPage.get(c), 200);
