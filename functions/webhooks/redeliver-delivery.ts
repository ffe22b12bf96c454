import { redeliver } from '../../src/domain/webhooks/redeliver.js';
import { REDELIVERIES_PER_DAY } from '../../src/domain/webhooks/webhook-bounds.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { DeliveryIds, RedeliveryStarted } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'redeliverWebhookDelivery',
  tags: ['Webhooks'],
  summary: "Deliver one delivery's event again",
  description: `A new delivery of the same event, through the queue and retried like any other, with the same \`webhook-id\` and a fresh signature. A disabled subscription is enabled again. While the delivery is still queued or attempted, or a redelivery of its event to the subscription is, the answer is \`409 delivery_pending\`; a company may ask ${REDELIVERIES_PER_DAY} redeliveries in any 24 hours (\`429 rate_limited\` with \`Retry-After\` past them).`,
  security: bearerSecurity,
  middleware: guard('webhooks:write', rateRules.other),
  request: { params: DeliveryIds },
  responses: {
    202: jsonContent(RedeliveryStarted, 'The event is queued for delivery again.'),
    ...errorResponses(...authErrors, 'webhook_not_found', 'delivery_not_found', 'delivery_pending'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id, delivery_id } = c.req.valid('param');
  const ctx = await keyChecked(c);
  return c.json(await redeliver(ctx, { subscriptionId: id, deliveryId: delivery_id }), 202);
};
