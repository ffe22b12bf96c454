import { z } from '@hono/zod-openapi';
import { eventKinds } from '../../src/domain/webhooks/event-catalog.js';
import { singleLineText, timestamp } from '../../src/http/schemas.js';

export const WebhookId = z.object({ id: z.string().openapi({ format: 'uuid' }) });

export const WebhookSubscription = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['active', 'disabled']).openapi({ description: '`disabled` after the endpoint answered 410 Gone, or kept failing for 3 days: nothing more is delivered.' }),
    disabled_reason: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('WebhookSubscription');

export const NewWebhookSubscription = z
  .strictObject({
    url: singleLineText(2000).openapi({
      description: 'https (http and loopback only on the embedded and dev servers); one line, no control characters (a URL parser would drop a tab or line break silently); no credentials; not a private, loopback or link-local address; at most 2,000 characters.',
      example: 'https://example.com/hooks/esign',
    }),
    events: z
      .array(z.enum(eventKinds as [string, ...string[]], { message: `Must be one of: ${eventKinds.join(', ')}.` }))
      .min(1)
      .max(eventKinds.length * 2),
    description: singleLineText(500).nullable().optional().openapi({ description: 'A label for the subscription: one line, no control characters.' }),
  })
  .openapi('NewWebhookSubscription');

export const CreatedWebhookSubscription = WebhookSubscription.extend({
  secret: z.string().openapi({ description: 'The signing secret (`whsec_…`), shown this once: keep it to verify deliveries.' }),
}).openapi('CreatedWebhookSubscription');

export const EventKindRecord = z.object({ type: z.string(), description: z.string() }).openapi('WebhookEventKind');

export const DeliveryAttempt = z
  .object({
    event_id: z.string().openapi({ description: 'The `webhook-id` of the delivery, the same across its attempts.' }),
    event_type: z.string(),
    attempt: z.number().int(),
    status_code: z.number().int().nullable(),
    delivered: z.boolean(),
    duration_ms: z.number().int().nullable(),
    error_type: z.enum(['timeout', 'network', 'refused_target', 'redirect', 'http_status']).nullable(),
    error: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('WebhookDeliveryAttempt');

export const TestDeliveryResult = DeliveryAttempt.openapi('WebhookTestDelivery');
