import { z } from '@hono/zod-openapi';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { clientIpOf } from '../../src/http/client-ip.js';
import { anonymousContext } from '../../src/http/verb-contexts.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { countRequest } from '../../src/http/rate-limit.js';
import { text } from '../../src/http/schemas.js';
import { rateRules } from '../../src/ports/rate-limiter.js';

const TokenRequest = z.strictObject({ api_key: text(200).min(1) }).openapi('TokenRequest');
const AccessToken = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int() }).openapi('AccessToken');

export const route = endpointRoute({
  operationId: 'createToken',
  tags: ['Authentication'],
  // The API key in the body is the credential: no bearer token yet.
  security: [],
  summary: 'Exchange an API key for a bearer token valid one hour',
  description: 'Limited to 20 exchanges in 15 minutes per IP address. Cache the token until it expires.',
  middleware: [countRequest(rateRules.tokenExchange, (c) => `ip:${clientIpOf(c)}`)] as const,
  request: { body: jsonBody(TokenRequest) },
  responses: {
    200: jsonContent(AccessToken, 'A bearer token for the API key.'),
    ...errorResponses('invalid_api_key', 'validation_failed', 'payload_too_large', 'rate_limited'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { api_key } = c.req.valid('json');
  return c.json(await exchangeApiKey(anonymousContext(c), { apiKey: api_key, client: clientIpOf(c) }), 200);
};
