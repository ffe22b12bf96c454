import { requestHash } from '../../src/domain/envelopes/idempotency.js';
import { loadSendContext } from '../../src/domain/envelopes/load-send-context.js';
import { startSendAdmission } from '../../src/domain/envelopes/send-admission.js';
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
 * The send's reads and its admission by the send limits start while the key is checked: one
 * network wave for all three. A request the validator then refuses, or a key the check refuses,
 * gives back what the admission took (`settle`).
 */
const sendReads = preload(
  async (c, scope) => {
    const services = c.get('services');
    const request = SendRequest.parse(await c.req.json());
    const idempotencyKey = IdempotencyHeaders.parse({ 'idempotency-key': c.req.header('idempotency-key') })['idempotency-key'];
    const claim = idempotencyKey ? { key: idempotencyKey, requestHash: await requestHash(request) } : undefined;
    const admission = startSendAdmission(services, scope, services.clock.now(), claim);
    const context = await loadSendContext(services.database.db, scope, request, idempotencyKey).catch(async (err: unknown) => {
      await admission.abandon();
      throw err;
    });
    return { request, idempotencyKey, context, admission };
  },
  { settle: ({ admission }) => admission.abandon() },
);

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
  const { request, idempotencyKey, context, admission } = await sendReads.get(c);
  const reportRate = (decision: RateDecision) => reportRateHeaders(c, decision);
  const outcome = await sendEnvelope({ services, principal: c.get('principal'), request, context, admission, idempotencyKey, reportRate });
  afterResponse(c, () => relayOutbox(services, outcome.outbox));
  if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(outcome.envelope, 201);
};
