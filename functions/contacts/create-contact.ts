import { createContact } from '../../src/domain/contacts/create-contact.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { ContactRecord, NewContact } from './contact-schemas.js';

export const route = endpointRoute({
  operationId: 'createContact',
  tags: ['Contacts'],
  summary: 'Create a contact',
  security: bearerSecurity,
  middleware: guard('contacts:write', rateRules.other),
  request: { body: jsonBody(NewContact) },
  responses: {
    201: jsonContent(ContactRecord, 'The new contact.'),
    ...errorResponses(...authErrors, 'validation_failed', 'contact_exists', 'contact_limit_reached', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const ctx = await keyChecked(c);
  const contact = await createContact(ctx, c.req.valid('json'));
  return c.json(contact, 201);
};
