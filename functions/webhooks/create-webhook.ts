import type { EventKind } from '../../src/domain/webhooks/event-catalog.js';
import { subscribe } from '../../src/domain/webhooks/subscriptions.js';
import { SUBSCRIPTIONS_PER_COMPANY } from '../../src/domain/webhooks/webhook-bounds.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { CreatedWebhookSubscription, NewWebhookSubscription } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'createWebhook',
  tags: ['Webhooks'],
  summary: 'Subscribe an endpoint to events',
  description: `Answers the subscription with its signing secret, shown only here. The URL is stored and answered normalised (scheme and host in lower case, default port dropped, \`.\` and \`..\` segments resolved, numeric IPv4 hosts in dotted decimal, an empty path as \`/\`, an empty query dropped, percent-encoded unreserved characters decoded and other escapes in upper case). One subscription per endpoint: the same URL again, in any spelling that normalises to it or differs only by a trailing or repeated slash, is \`409 webhook_exists\`. A company has at most ${SUBSCRIPTIONS_PER_COMPANY} subscriptions: the next is \`422 webhook_limit_reached\`.`,
  security: bearerSecurity,
  middleware: guard('webhooks:write', rateRules.other),
  request: { body: jsonBody(NewWebhookSubscription) },
  responses: {
    201: jsonContent(CreatedWebhookSubscription, 'The subscription and its signing secret.'),
    ...errorResponses(...authErrors, 'validation_failed', 'webhook_exists', 'webhook_limit_reached', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const body = c.req.valid('json');
  const ctx = await keyChecked(c);
  const created = await subscribe(ctx, { ...body, events: body.events as EventKind[] });
  return c.json(created, 201);
};
