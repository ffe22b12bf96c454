import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { loadSendContext, type SendContext } from '../../src/domain/envelopes/load-send-context.js';
import { sendEnvelope } from '../../src/domain/envelopes/send-envelope.js';
import { unavailable } from '../../src/domain/shared/unavailable.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { guard, type Preload } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonBody, jsonContent } from '../../src/http/openapi-helpers.js';
import { Envelope, IdempotencyHeaders, SendRequest } from './envelope-schemas.js';

/** The send's reads start while the key is checked (one database round trip for both). */
const preloadSendContext: Preload = async (c, claims) => {
  const parsed = SendRequest.safeParse(await c.req.json());
  if (!parsed.success) return undefined;
  return loadSendContext(c.get('services').database.db, claims, parsed.data, c.req.header('idempotency-key'));
};

export const route = createRoute({
  method: 'post',
  path: '/v1/envelopes/from-template',
  operationId: 'sendEnvelopeFromTemplate',
  tags: ['Envelopes'],
  summary: 'Create an envelope from a template and send it',
  description:
    'Validates the body, the template and its roles, the sender, the quota (one API signature request per send) and the send rate limit (100 sends in 15 minutes per key), then sends atomically: a 201 means the envelope, its e-mails, webhook event, reminders and expiry are committed; any other answer means nothing of it exists.',
  security: bearerSecurity,
  middleware: guard('envelopes:send', null, preloadSendContext),
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
    (c.get('preloaded') as SendContext | undefined) ??
    (await loadSendContext(services.database.db, principal, request, idempotencyKey).catch((err: unknown) => {
      throw unavailable(err);
    }));
  const answer = await sendEnvelope(services, principal, request, context, idempotencyKey);
  return c.json(answer.body, 201, answer.headers);
};
