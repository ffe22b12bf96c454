import { listSubscriptions } from '../../src/domain/webhooks/subscriptions.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { WebhookSubscription } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'listWebhooks',
  tags: ['Webhooks'],
  summary: 'List webhook subscriptions',
  security: bearerSecurity,
  middleware: guard('webhooks:read', rateRules.other),
  request: { query: paginationQuery },
  responses: {
    200: jsonContent(listOf(WebhookSubscription), 'One page of subscriptions, newest first; secrets are never shown again.'),
    ...errorResponses(...authErrors, 'validation_failed'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { page, per_page } = c.req.valid('query');
  // The page is read while the key is checked: one round trip for both.
  const { value } = await keyChecked(c, (scope) => listSubscriptions(scope, { page, perPage: per_page }));
  return c.json(value, 200);
};
