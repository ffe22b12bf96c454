import { listDeliveries } from '../../src/domain/webhooks/deliveries.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery } from '../../src/http/schemas.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { DeliveryAttempt, WebhookId } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: "List a subscription's delivery attempts",
  security: bearerSecurity,
  middleware: guard('webhooks:read', rateRules.other),
  request: { params: WebhookId, query: paginationQuery },
  responses: {
    200: jsonContent(listOf(DeliveryAttempt), 'One page of attempts, newest first.'),
    ...errorResponses(...authErrors, 'validation_failed', 'webhook_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id } = c.req.valid('param');
  const { page, per_page } = c.req.valid('query');
  // The page is read while the key is checked: one round trip for both.
  const { value } = await keyChecked(c, (scope) => listDeliveries(scope, { id, page, perPage: per_page }));
  return c.json(value, 200);
};
