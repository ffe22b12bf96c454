import { z } from '@hono/zod-openapi';
import { eventCatalog } from '../../src/domain/webhooks/event-catalog.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { EventKindRecord } from './webhook-schemas.js';

export const route = endpointRoute({
  operationId: 'listWebhookEventKinds',
  tags: ['Webhooks'],
  summary: 'List the event kinds a subscription can ask for',
  security: bearerSecurity,
  middleware: guard('webhooks:read', rateRules.other),
  responses: {
    200: jsonContent(z.object({ data: z.array(EventKindRecord) }), 'Every event kind, with what it means.'),
    ...errorResponses(...authErrors),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  await keyChecked(c);
  return c.json({ data: Object.entries(eventCatalog).map(([type, description]) => ({ type, description })) }, 200);
};
