import { loadSendContext } from '../../src/domain/envelopes/load-send-context.js';
import { sendEnvelope } from '../../src/domain/envelopes/send-envelope.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { reportRate } from '../../src/http/rate-limit.js';
import { Envelope, IdempotencyHeaders, SendRequest } from './envelope-schemas.js';

export const route = endpointRoute({
  operationId: 'sendEnvelopeFromTemplate',
  tags: ['Envelopes'],
  summary: 'Create an envelope from a template and send it',
  description:
    'Validates the body, the template and its roles, the sender, the send rate limit (100 sends in 15 minutes per key, refused sends included) and the quota (one API signature request per send), then sends atomically: a 201 means the envelope and its e-mails, webhook event, reminders and expiry are committed and will happen; any other answer means nothing of it exists. With an `Idempotency-Key`, a retry gets the first answer; a retry while the first request still runs waits briefly for it, or gets 409 `idempotency_request_in_progress` with `Retry-After`.',
  security: bearerSecurity,
  middleware: guard('envelopes:send', null),
  request: { headers: IdempotencyHeaders, body: jsonBody(SendRequest) },
  responses: {
    201: jsonContent(Envelope, 'The envelope, sent.'),
    ...errorResponses(
      ...authErrors,
      'quota_exceeded',
      'template_not_found',
      'unknown_signer_role',
      'sender_not_found',
      'validation_failed',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
      'payload_too_large',
      'service_unavailable',
    ),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const request = c.req.valid('json');
  const idempotencyKey = c.req.valid('header')['idempotency-key'];
  // The send's reads are made while the key is checked: one network wave for both. Its admission
  // by the send limits comes after (sendEnvelope), so a request the key check refuses takes nothing.
  const { ctx, value: context } = await keyChecked(c, (scope) => loadSendContext(scope.services.database.db, scope, request, idempotencyKey));
  const outcome = await sendEnvelope(ctx, { request, context, idempotencyKey, reportRate: (decision) => reportRate(c, decision) });
  if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(outcome.envelope, 201);
};
