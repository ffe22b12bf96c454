import { createRoute, type RouteHandler, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../src/http/app-env.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { timestamp } from '../../src/http/schemas.js';
import { retryDeadJob } from '../../src/queue/dead-jobs.js';
import { adminSecurity } from './admin-schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/admin/v1/dead-jobs/{id}/retry',
  operationId: 'adminRetryDeadJob',
  tags: ['Admin'],
  summary: 'Hand a dead job back to the queue, due now, with its attempts counted from zero',
  security: adminSecurity,
  request: { params: z.object({ id: z.string() }) },
  responses: {
    200: jsonContent(
      z.object({ id: z.string(), topic: z.string(), queued_at: timestamp }),
      'The job is queued again and its dead record removed.',
      false,
    ),
    ...errorResponses('unauthorized', 'not_found'),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json(await retryDeadJob(c.get('services'), c.req.valid('param').id), 200);
