import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { loadSendContext } from '../../src/domain/envelopes/load-send-context.js';
import { sendEnvelope } from '../../src/domain/envelopes/send-envelope.js';
import { unavailable } from '../../src/domain/shared/unavailable.js';
import { relayOutbox } from '../../src/outbox/outbox.js';
import { afterResponse } from '../../src/http/after-response.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { guard, preload } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { reportRate } from '../../src/http/rate-limit.js';
import { Envelope, IdempotencyHeaders, SendRequest } from './envelope-schemas.js';

/** The send's reads start while the key is checked (one database round trip for both). */
const sendContext = preload(async (c, claims) => {
  const parsed = SendRequest.safeParse(await c.req.json());
  if (!parsed.success) return undefined;
  return loadSendContext(c.get('services').database.db, claims, parsed.data, c.req.header('idempotency-key'));
});

export const route = createRoute({
  method: 'post',
  path: '/v1/envelopes/from-template',
  operationId: 'sendEnvelopeFromTemplate',
  tags: ['Envelopes'],
  summary: 'Create an envelope from a template and send it',
  description:
    'Validates the body, the template and its roles, the sender, the send rate limit (100 sends in 15 minutes per key, refused sends included) and the quota (one API signature request per send), then sends atomically: a 201 means the envelope and its e-mails, webhook event, reminders and expiry are committed and will happen; any other answer means nothing of it exists. With an `Idempotency-Key`, a retry gets the first answer; a retry while the first request still runs waits briefly for it, or gets 409 `idempotency_request_in_progress` with `Retry-After`.',
  security: bearerSecurity,
  middleware: guard('envelopes:send', null, sendContext),
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

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const services = c.get('services');
  const principal = c.get('principal');
  const request = c.req.valid('json');
  const idempotencyKey = c.req.valid('header')['idempotency-key'];
  const context =
    sendContext.of(c) ??
    (await loadSendContext(services.database.db, principal, request, idempotencyKey).catch((err: unknown) => {
      throw unavailable(err);
    }));
  const outcome = await sendEnvelope({ services, principal, request, context, idempotencyKey, reportRate: (decision) => reportRate(c, decision) });
  afterResponse(c, () => relayOutbox(services, outcome.outbox));
  if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(outcome.envelope, 201);
};
