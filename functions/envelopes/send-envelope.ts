import { loadSendContext } from '../../src/domain/envelopes/load-send-context.js';
import { sendEnvelope } from '../../src/domain/envelopes/send-envelope.js';
import { relayOutbox } from '../../src/outbox/outbox.js';
import { afterResponse } from '../../src/http/after-response.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, preload } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { reportRate as reportRateHeaders } from '../../src/http/rate-limit.js';
import type { RateDecision } from '../../src/ports/rate-limiter.js';
import { Envelope, IdempotencyHeaders, SendRequest } from './envelope-schemas.js';

/**
 * The send's reads, made while the key is checked: one network wave for both. Its admission by
 * the send limits comes after, once the reads passed validation (sendEnvelope), so a request the
 * key check or the validator refuses has taken nothing.
 */
const sendReads = preload(async (c, scope) => {
  const request = SendRequest.parse(await c.req.json());
  const idempotencyKey = IdempotencyHeaders.parse({ 'idempotency-key': c.req.header('idempotency-key') })['idempotency-key'];
  const context = await loadSendContext(c.get('services').database.db, scope, request, idempotencyKey);
  return { request, idempotencyKey, context };
});

export const route = endpointRoute({
  operationId: 'sendEnvelopeFromTemplate',
  tags: ['Envelopes'],
  summary: 'Create an envelope from a template and send it',
  description:
    'Validates the body, the template and its roles, the sender, the send rate limit (100 sends in 15 minutes per key, refused sends included) and the quota (one API signature request per send), then sends atomically: a 201 means the envelope and its e-mails, webhook event, reminders and expiry are committed and will happen; any other answer means nothing of it exists. With an `Idempotency-Key`, a retry gets the first answer; a retry while the first request still runs waits briefly for it, or gets 409 `idempotency_request_in_progress` with `Retry-After`.',
  security: bearerSecurity,
  middleware: guard('envelopes:send', null, sendReads),
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
  const services = c.get('services');
  const { request, idempotencyKey, context } = await sendReads.get(c);
  const reportRate = (decision: RateDecision) => reportRateHeaders(c, decision);
  const outcome = await sendEnvelope({ services, principal: c.get('principal'), request, context, idempotencyKey, reportRate });
  afterResponse(c, () => relayOutbox(services, outcome.outbox));
  if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(outcome.envelope, 201);
};
