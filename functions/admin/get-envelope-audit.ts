import { z } from '@hono/zod-openapi';
import { auditTrail } from '../../src/domain/envelopes/audit-trail.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { paginationQuery, paginationSchema, timestamp } from '../../src/http/schemas.js';
import { adminSecurity } from './admin-schemas.js';

/** A whole ordinary trail fits one page of the default size; the bound is the lists' own, 100. */
const auditPageQuery = paginationQuery.extend({
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(100)
    .openapi({ param: { name: 'per_page', in: 'query' }, example: 100 }),
});

const AuditTrail = z
  .object({
    envelope_id: z.string(),
    status: z.string(),
    events: z.array(
      z.object({
        id: z.string(),
        kind: z.string().openapi({ example: 'recipient.signed' }),
        actor: z.object({ type: z.enum(['api_key', 'admin', 'recipient', 'system', 'user']), id: z.string().nullable() }),
        data: z.record(z.string(), z.unknown()).openapi({ description: 'What the event records: for a signer, their IP address and user agent.' }),
        at: timestamp,
      }),
    ),
    pagination: paginationSchema,
  })
  .openapi('AuditTrail');

export const route = endpointRoute({
  operationId: 'adminGetEnvelopeAudit',
  tags: ['Admin'],
  summary: 'The audit trail of an envelope, oldest first, page by page',
  security: adminSecurity,
  request: { params: z.object({ id: z.string() }), query: auditPageQuery },
  responses: {
    200: jsonContent(
      AuditTrail,
      "One page of the events of the envelope, oldest first: sent, e-mailed, viewed, consented, signed, declined, voided, expired, completed. Past the first ten of a kind, a recipient's repeated events (failed tries at a code, codes sent, verifications) are counted on one `recipient.repeated` event.",
      false,
    ),
    ...errorResponses('unauthorized', 'envelope_not_found', 'validation_failed'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { page, per_page } = c.req.valid('query');
  return c.json(await auditTrail(operatorContext(c), { envelopeId: c.req.valid('param').id, page, perPage: per_page }), 200);
};
