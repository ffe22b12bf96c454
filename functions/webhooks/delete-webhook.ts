import { unsubscribe } from '../../src/domain/webhooks/subscriptions.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { WebhookId } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'deleteWebhook',
  tags: ['Webhooks'],
  summary: 'Remove a subscription',
  security: bearerSecurity,
  middleware: guard('webhooks:write', rateRules.other),
  request: { params: WebhookId },
  responses: {
    204: { description: 'Removed: nothing more is delivered to it, retries of earlier events included.' },
    ...errorResponses(...authErrors, 'webhook_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id } = c.req.valid('param');
  const ctx = await keyChecked(c);
  await unsubscribe(ctx, { id });
  return c.body(null, 204);
};
