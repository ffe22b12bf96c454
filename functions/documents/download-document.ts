import { z } from '@hono/zod-openapi';
import { documentNotFound, downloadDocument } from '../../src/domain/webhooks/document-link.js';
import { clientIpOf } from '../../src/http/client-ip.js';
import { documentAnswer } from '../../src/http/document-answer.js';
import { DocumentRequestHeaders, documentResponses } from '../../src/http/document-openapi.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses } from '../../src/http/openapi-helpers.js';
import { countRequest } from '../../src/http/rate-limit.js';
import { anonymousContext } from '../../src/http/verb-contexts.js';
import { rateRules } from '../../src/ports/rate-limiter.js';

// Loose on purpose: a link that is cut or altered is `document_not_found`, never a validation error
// that would tell which part is wrong. A part given twice reaches the handler (as an empty text, which
// no genuine link has), and the handler refuses any parameter given twice.
const linkPart = z.preprocess((value) => (Array.isArray(value) ? '' : value), z.string().optional());
const LinkQuery = z.object({
  expires: linkPart.openapi({ param: { name: 'expires', in: 'query' }, description: 'Unix seconds, as the link gives it.' }),
  sig: linkPart.openapi({ param: { name: 'sig', in: 'query' }, description: 'The link’s signature, as the link gives it.' }),
});

export const route = endpointRoute({
  operationId: 'downloadFinishedDocument',
  tags: ['Webhooks'],
  // The signed link is the credential, so it opens where no token is at hand.
  security: [],
  summary: 'The finished PDF, by the download link of envelope.document_ready',
  description:
    "Needs no other credential: the link (`download_url` of `envelope.document_ready`) is one, valid 24 hours, for that envelope's finished PDF only, so keep it as you keep the PDF. An altered link, or one bent to another envelope, is `404 document_not_found`; an expired one `410 download_link_expired` (replay or redeliver the event for a fresh link). Limited to 1000 requests in 15 minutes per IP address.",
  middleware: [countRequest(rateRules.other, (c) => `ip:${clientIpOf(c)}`)] as const,
  request: { params: z.object({ envelope_id: z.string() }), query: LinkQuery, headers: DocumentRequestHeaders },
  responses: {
    ...documentResponses('The finished PDF, as an attachment, never cached; `X-Document-SHA256` carries its hash, `ETag` the same quoted.'),
    ...errorResponses('document_not_found', 'download_link_expired', 'rate_limited'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  // The link made has each parameter once: one given twice is an altered link, whichever copy is genuine.
  if (Object.values(c.req.queries()).some((values) => values.length > 1)) throw documentNotFound();
  const document = await downloadDocument(anonymousContext(c), { envelopeId: c.req.valid('param').envelope_id, link: c.req.valid('query') });
  return (await documentAnswer(c.get('services').documents, document, c.req.raw.headers, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${document.fileName}"`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Document-SHA256': document.sha256,
  })) as never;
};
