import { rotateSecret } from '../../src/domain/webhooks/secret-rotation.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { RotatedSecret, WebhookId } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'rotateWebhookSecret',
  tags: ['Webhooks'],
  summary: 'Replace the signing secret, with 24 hours of overlap',
  description:
    'Answers the new secret, shown only here. For 24 hours each delivery carries two signatures in `webhook-signature` (space-separated `v1,…` entries, the new secret’s first), so a receiver verifies with either; then only the new one. Rotating again within the 24 hours ends the older secret at once: only the latest two sign.',
  security: bearerSecurity,
  middleware: guard('webhooks:write', rateRules.other),
  request: { params: WebhookId },
  responses: {
    200: jsonContent(RotatedSecret, 'The new secret.'),
    ...errorResponses(...authErrors, 'webhook_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id } = c.req.valid('param');
  const ctx = await keyChecked(c);
  return c.json(await rotateSecret(ctx, { id }), 200);
};
