import { z } from '@hono/zod-openapi';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { listOf, paginationQuery, timestamp } from '../../src/http/schemas.js';
import { listDeadJobs } from '../../src/queue/dead-jobs.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { adminSecurity } from './admin-schemas.js';

export const DeadJobRecord = z
  .object({
    id: z.string().openapi({ description: 'The message id in its queue (QStash message id in production).' }),
    topic: z.string(),
    body: z.record(z.string(), z.unknown()).openapi({ description: 'The message as queued: ids only.' }),
    attempts: z.number().int().openapi({ description: 'Attempts made, the first included.' }),
    last_error: z.string().openapi({ description: 'Why the last attempt failed, cut to 1000 characters.' }),
    failed_at: timestamp,
  })
  .openapi('DeadJob');

export const route = endpointRoute({
  operationId: 'adminListDeadJobs',
  tags: ['Admin'],
  summary: 'List the queue jobs that failed every attempt and are no longer retried',
  security: adminSecurity,
  request: { query: paginationQuery },
  responses: {
    200: jsonContent(listOf(DeadJobRecord), 'One page, the latest failure first.', false),
    ...errorResponses('unauthorized', 'validation_failed'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { page, per_page } = c.req.valid('query');
  return c.json(await listDeadJobs(operatorContext(c), { page, perPage: per_page }), 200);
};
