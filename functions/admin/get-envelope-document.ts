import { z } from '@hono/zod-openapi';
import { finishedDocument } from '../../src/domain/envelopes/finished-document.js';
import { documentAnswer } from '../../src/http/document-answer.js';
import { DocumentRequestHeaders, documentResponses } from '../../src/http/document-openapi.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses } from '../../src/http/openapi-helpers.js';
import { adminSecurity } from './admin-schemas.js';

export const route = endpointRoute({
  operationId: 'adminGetEnvelopeDocument',
  tags: ['Admin'],
  summary: 'The finished PDF of a completed envelope (409 until it has been made)',
  security: adminSecurity,
  request: { params: z.object({ id: z.string() }), headers: DocumentRequestHeaders },
  responses: {
    ...documentResponses('The finished PDF, as an attachment; `X-Document-SHA256` carries its hash, `ETag` the same quoted.'),
    ...errorResponses('unauthorized', 'envelope_not_found', 'conflict'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const document = await finishedDocument(operatorContext(c), { envelopeId: c.req.valid('param').id });
  return (await documentAnswer(c.get('services').documents, document, c.req.raw.headers, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${document.fileName}"`,
    'X-Document-SHA256': document.sha256,
  })) as never;
};
