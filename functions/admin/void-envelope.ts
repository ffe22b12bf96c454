import { z } from '@hono/zod-openapi';
import { envelopeNotFound } from '../../src/domain/envelopes/envelope-not-found.js';
import { voidEnvelope } from '../../src/domain/envelopes/void-envelope.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { text } from '../../src/http/schemas.js';
import { isEnvelopeId } from '../../src/lib/ids.js';
import { adminSecurity } from './admin-schemas.js';

const VoidRequest = z.strictObject({ reason: text(500).nullable().optional() }).openapi('VoidRequest');

export const route = endpointRoute({
  operationId: 'adminVoidEnvelope',
  tags: ['Admin'],
  summary: 'Void an envelope: its signing links stop working at once',
  security: adminSecurity,
  request: {
    params: z.object({ id: z.string() }),
    body: { required: false, content: { 'application/json': { schema: VoidRequest } } },
  },
  responses: {
    200: jsonContent(
      z.object({ envelope_id: z.string(), status: z.literal('voided'), voided_at: z.string() }),
      'The envelope is voided (also when it already was).',
      false,
    ),
    ...errorResponses('unauthorized', 'envelope_not_found', 'conflict', 'validation_failed'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id } = c.req.valid('param');
  // A malformed id answers like an unknown one, and never reaches a query.
  if (!isEnvelopeId(id)) throw envelopeNotFound(id);
  const body = c.req.valid('json') as z.infer<typeof VoidRequest> | undefined;
  return c.json(await voidEnvelope(operatorContext(c), { envelopeId: id, reason: body?.reason ?? null }), 200);
};
