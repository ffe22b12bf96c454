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
    status: z
      .enum(['active', 'disabled'])
      .openapi({ description: '`disabled` after the endpoint answered 410 Gone, or kept failing for 3 days: nothing more is delivered.' }),
    disabled_reason: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('WebhookSubscription');

export const NewWebhookSubscription = z
  .strictObject({
    url: singleLineText(2000).openapi({
      description:
        'https (http and loopback only on the embedded and dev servers); one line, no control characters (a URL parser would drop a tab or line break silently); no credentials; not a private, loopback or link-local address; at most 2,000 characters.',
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
    delivery_id: z.string().openapi({
      format: 'uuid',
      description: 'The delivery this attempt belongs to (up to six attempts share one): give it to `…/deliveries/{delivery_id}/redeliver`.',
    }),
    origin: z.enum(['event', 'replay', 'redelivery']).openapi({ description: 'What made the delivery: the event itself, a replay, or a redelivery.' }),
    event_id: z.string().openapi({ description: 'The `webhook-id` of the delivery, the same across its attempts, replays and redeliveries.' }),
    event_type: z.string(),
    attempt: z.number().int(),
    status_code: z.number().int().nullable(),
    delivered: z.boolean(),
    duration_ms: z.number().int().nullable(),
    error_type: z.enum(['timeout', 'network', 'refused_target', 'redirect', 'http_status', 'interrupted']).nullable().openapi({
      description:
        'Why the attempt failed; `interrupted` when it never finished (the service stopped while it ran). Null when delivered, or while the attempt runs.',
    }),
    error: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('WebhookDeliveryAttempt');

export const TestDeliveryResult = DeliveryAttempt.openapi('WebhookTestDelivery');

/** An ISO 8601 instant with its offset (`Z` or `+02:00`), milliseconds optional. */
const instant = z.iso
  .datetime({ offset: true, message: 'Must be an ISO 8601 date and time with an offset, e.g. 2026-11-22T12:00:00Z.' })
  .openapi({ format: 'date-time', example: '2026-11-22T12:00:00.000Z' });

export const ReplayRequest = z
  .strictObject({
    since: instant.openapi({ description: "The window's start (inclusive): at most 30 days ago, the time events are kept." }),
    until: instant.optional().openapi({ description: "The window's end (inclusive), not after now, not before `since`; now when left out." }),
    events: z
      .array(z.string().max(100))
      .min(1)
      .max(eventKinds.length * 2)
      .optional()
      .openapi({ description: 'Only these kinds, each one the subscription receives (another is `422 validation_failed`); all of its kinds when left out.' }),
  })
  .openapi('WebhookReplayRequest');

export const ReplayStarted = z
  .object({ replayed: z.number().int().openapi({ description: 'How many events the replay delivers again.' }) })
  .openapi('WebhookReplayStarted');

export const DeliveryIds = z.object({
  id: z.string().openapi({ format: 'uuid' }),
  delivery_id: z.string().openapi({ format: 'uuid', description: 'A `delivery_id` of GET /v1/webhooks/{id}/deliveries.' }),
});

export const RedeliveryStarted = z
  .object({
    delivery_id: z.string().openapi({ format: 'uuid', description: 'The new delivery: its attempts appear under this id in the deliveries list.' }),
    event_id: z.string().openapi({ description: 'The event delivered again: its `webhook-id`, unchanged.' }),
  })
  .openapi('WebhookRedelivery');

export const RotatedSecret = z
  .object({
    secret: z.string().openapi({ description: 'The new signing secret (`whsec_…`), shown this once.' }),
    previous_secret_expires_at: timestamp.openapi({ description: 'Until then (24 hours) each delivery is also signed with the replaced secret.' }),
  })
  .openapi('WebhookRotatedSecret');
