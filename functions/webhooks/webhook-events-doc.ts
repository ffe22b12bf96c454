/**
 * The events the service sends, in the OpenAPI document's `webhooks` section: one entry per kind,
 * each with the one payload shape and the Standard Webhooks headers that sign it.
 */
import { z } from '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { eventCatalog, testEventKind } from '../../src/domain/webhooks/event-catalog.js';
import { timestamp } from '../../src/http/schemas.js';

const EventEnvelope = z
  .object({
    envelope_id: z.string(),
    title: z.string(),
    status: z.enum(['sent', 'completed', 'declined', 'voided', 'expired']).openapi({ description: 'The status after the event.' }),
    sender: z.object({ email: z.string() }),
  })
  .openapi('WebhookEventEnvelope');

const EventRecipient = z
  .object({
    recipient_id: z.string(),
    role: z.string(),
    name: z.string(),
    email: z.string(),
    recipient_type: z.enum(['need-to-sign', 'receives-copy']),
  })
  .openapi('WebhookEventRecipient');

const EventData = z
  .object({
    envelope: EventEnvelope,
    recipient: EventRecipient.optional().openapi({ description: 'The recipient the event is about: viewed, signed, declined.' }),
    recipients: z.array(EventRecipient).optional().openapi({ description: 'Every recipient: sent, completed.' }),
    reason: z.string().nullable().optional().openapi({ description: 'declined (the signer’s reason) and voided (the operator’s, or null).' }),
    document: z
      .object({
        file_name: z.string(),
        sha256: z.string().openapi({ description: 'SHA-256 (hex) of the finished PDF: check it against the decoded content.' }),
        size: z.number().int(),
        content_base64: z.string().nullable().openapi({ description: 'The finished PDF itself.' }),
        download_url: z.string().nullable().openapi({
          format: 'uri',
          description:
            '`{BASE_URL}/v1/documents/{envelope_id}?expires=…&sig=…`: the finished PDF (`application/pdf`, as an attachment), for 24 hours from this attempt, with no other credential. The link is one: keep it as you keep the PDF, out of logs. An altered link, or one bent to another envelope, answers `404 document_not_found`; an expired one `410 download_link_expired` (replay or redeliver the event for a fresh one).',
        }),
      })
      .optional()
      .openapi({ description: 'document_ready only.' }),
    occurred_at: timestamp,
    sequence: z.number().int().min(1).openapi({
      description:
        "The event's place in its envelope's history: 1, 2, 3… in the order the envelope's events occurred; the same on every attempt, replay and redelivery. Order an envelope's events by it: deliveries may arrive out of order.",
    }),
  })
  .openapi('WebhookEventData');

const signatureHeaders = z.object({
  'webhook-id': z.string().openapi({ description: 'The event id: the same on every attempt, replay and redelivery, so a receiver can drop repeats.' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt.' }),
  'webhook-signature': z.string().openapi({
    description:
      '`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret’s bytes (Standard Webhooks). For 24 hours after `POST /v1/webhooks/{id}/rotate-secret`, two such entries separated by a space, one per secret (the new one first): accept the delivery if any entry verifies.',
  }),
});

const receiverAnswers = {
  200: { description: 'Any 2xx: delivered.' },
  410: { description: 'Gone: the subscription is disabled; nothing more is sent to it.' },
  default: {
    description:
      'Anything else, a redirect, a timeout (10 s) or no connection: the attempt failed and is retried with backoff, six attempts in all. Events are kept 30 days: until then `POST /v1/webhooks/{id}/replay` delivers a window of them again, and `POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver` one of them.',
  },
};

export function registerWebhookDocs(app: OpenAPIHono<never>) {
  const kinds: [string, string][] = [...Object.entries(eventCatalog), [testEventKind, 'A test delivery, sent by POST /v1/webhooks/{id}/test.']];
  for (const [kind, description] of kinds) {
    const payload = z
      .object({
        type: z.literal(kind),
        timestamp: timestamp.openapi({ description: 'When the event happened.' }),
        data: kind === testEventKind ? z.object({ message: z.string(), webhook_id: z.string() }) : EventData,
      })
      .openapi(`Webhook_${kind.replace('.', '_')}`);
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: kind,
      summary: description,
      // `envelope.document_ready` → `envelopeDocumentReadyEvent`.
      operationId: `${kind.replaceAll(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Event`,
      tags: ['Webhooks'],
      // The receiver asks for no credential of ours: it verifies the signature headers instead.
      security: [],
      request: { headers: signatureHeaders, body: { content: { 'application/json': { schema: payload } } } },
      responses: receiverAnswers,
    });
  }
}
