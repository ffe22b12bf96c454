import { redeliver } from '../../src/domain/webhooks/redeliver.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { DeliveryIds, RedeliveryStarted } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'redeliverWebhookDelivery',
  tags: ['Webhooks'],
  summary: "Deliver one delivery's event again",
  description:
    'A new delivery of the same event, through the queue and retried like any other, with the same `webhook-id` and a fresh signature. A disabled subscription is enabled again.',
  security: bearerSecurity,
  middleware: guard('webhooks:write', rateRules.other),
  request: { params: DeliveryIds },
  responses: {
    202: jsonContent(RedeliveryStarted, 'The event is queued for delivery again.'),
    ...errorResponses(...authErrors, 'webhook_not_found', 'delivery_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id, delivery_id } = c.req.valid('param');
  return c.json(await redeliver(c.get('services'), c.get('principal').companyId, id, delivery_id), 202);
};
