import { z } from '@hono/zod-openapi';
import { auditTrail } from '../../src/domain/envelopes/envelope-record.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { timestamp } from '../../src/http/schemas.js';
import { adminSecurity } from './admin-schemas.js';

const AuditTrail = z
  .object({
    envelope_id: z.string(),
    status: z.string(),
    events: z.array(
      z.object({
        id: z.string(),
        kind: z.string().openapi({ example: 'recipient.signed' }),
        actor: z.object({ type: z.enum(['api_key', 'admin', 'recipient', 'system']), id: z.string().nullable() }),
        data: z.record(z.string(), z.unknown()).openapi({ description: 'What the event records: for a signer, their IP address and user agent.' }),
        at: timestamp,
      }),
    ),
  })
  .openapi('AuditTrail');

export const route = endpointRoute({
  operationId: 'adminGetEnvelopeAudit',
  tags: ['Admin'],
  summary: 'The audit trail of an envelope, oldest first',
  security: adminSecurity,
  request: { params: z.object({ id: z.string() }) },
  responses: {
    200: jsonContent(AuditTrail, 'Every event of the envelope: sent, e-mailed, viewed, consented, signed, declined, voided, expired, completed.', false),
    ...errorResponses('unauthorized', 'envelope_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => c.json(await auditTrail(c.get('services'), c.req.valid('param').id), 200);
