import { startReplay } from '../../src/domain/webhooks/replay-events.js';
import { REPLAYED_EVENTS_PER_DAY, REPLAYS_PER_DAY } from '../../src/domain/webhooks/webhook-bounds.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { ReplayRequest, ReplayStarted, WebhookId } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'replayWebhookEvents',
  tags: ['Webhooks'],
  summary: 'Deliver the events of a time window again',
  description: `Delivers again, oldest first, every event of the company of the subscription's kinds (or of \`events\`) that occurred in the window, events from before the subscription was made included, each with its original \`webhook-id\` and a fresh signature. Events are kept 30 days: a window reaching further back is \`422 validation_failed\`. Each event is handed to the queue once the one before it was attempted, and retried like any delivery. One replay runs per subscription at a time: a second is \`409 replay_in_progress\` with \`Retry-After\`. A company may start ${REPLAYS_PER_DAY} replays carrying ${REPLAYED_EVENTS_PER_DAY.toLocaleString('en-US')} events in any 24 hours, all its subscriptions together: past that, \`429 rate_limited\` with \`Retry-After\`; one replay of more than ${REPLAYED_EVENTS_PER_DAY.toLocaleString('en-US')} events is \`422 validation_failed\`. A disabled subscription is enabled again.`,
  security: bearerSecurity,
  middleware: guard('webhooks:write', rateRules.other),
  request: { params: WebhookId, body: jsonBody(ReplayRequest) },
  responses: {
    202: jsonContent(ReplayStarted, 'The replay started.'),
    ...errorResponses(...authErrors, 'validation_failed', 'webhook_not_found', 'replay_in_progress', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const body = c.req.valid('json');
  const request = { since: new Date(body.since), until: body.until === undefined ? undefined : new Date(body.until), events: body.events };
  const ctx = await keyChecked(c);
  return c.json(await startReplay(ctx, { subscriptionId: c.req.valid('param').id, request }), 202);
};
