import { z } from '@hono/zod-openapi';
import { getSigningLinks } from '../../src/domain/envelopes/get-signing-links.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { SigningLinkEntry } from './envelope-schemas.js';

export const route = endpointRoute({
  operationId: 'getSigningLinks',
  tags: ['Envelopes'],
  summary: 'Get the signing links of a sent envelope',
  security: bearerSecurity,
  middleware: guard('envelopes:send', rateRules.other),
  request: { params: z.object({ id: z.string().openapi({ example: 'env_3kTzQ8pL2mWv9XcR1bN4dY' }) }) },
  responses: {
    200: jsonContent(z.object({ signing_urls: z.array(SigningLinkEntry) }), 'One entry per recipient, in signing order.'),
    ...errorResponses(...authErrors, 'signing_links_disabled', 'envelope_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id } = c.req.valid('param');
  // The links are read while the key is checked: one round trip for both.
  const { value: links } = await keyChecked(c, (scope) => getSigningLinks(scope, { envelopeId: id }));
  return c.json(links, 200);
};
