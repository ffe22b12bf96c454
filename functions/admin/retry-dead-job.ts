import { z } from '@hono/zod-openapi';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { timestamp } from '../../src/http/schemas.js';
import { retryDeadJob } from '../../src/queue/dead-jobs.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { adminSecurity } from './admin-schemas.js';

export const route = endpointRoute({
  operationId: 'adminRetryDeadJob',
  tags: ['Admin'],
  summary: 'Hand a dead job back to the queue, due now, with its attempts counted from zero',
  security: adminSecurity,
  request: { params: z.object({ id: z.string() }) },
  responses: {
    200: jsonContent(z.object({ id: z.string(), topic: z.string(), queued_at: timestamp }), 'The job is queued again and its dead record removed.', false),
    ...errorResponses('unauthorized', 'not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => c.json(await retryDeadJob(operatorContext(c), { id: c.req.valid('param').id }), 200);
