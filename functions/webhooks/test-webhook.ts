import { sendTestEvent } from '../../src/domain/webhooks/deliveries.js';
import { TEST_DELIVERIES_PER_HOUR } from '../../src/domain/webhooks/webhook-bounds.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { TestDeliveryResult, WebhookId } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'testWebhook',
  tags: ['Webhooks'],
  summary: 'Deliver a signed webhook.test event now',
  description: `Delivers once, without retries, and answers what happened: whether it was delivered, the status code, the time it took, or the error. A company may make ${TEST_DELIVERIES_PER_HOUR} test deliveries in any hour (\`429 rate_limited\` with \`Retry-After\` past them).`,
  security: bearerSecurity,
  middleware: guard('webhooks:write', rateRules.other),
  request: { params: WebhookId },
  responses: {
    200: jsonContent(TestDeliveryResult, 'The attempt, delivered or not.'),
    ...errorResponses(...authErrors, 'webhook_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id } = c.req.valid('param');
  const ctx = await keyChecked(c);
  return c.json(await sendTestEvent(ctx, { id }), 200);
};
