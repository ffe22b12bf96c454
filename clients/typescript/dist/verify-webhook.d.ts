import type { components } from './schema.js';
/** Every event a subscription can receive, as the OpenAPI document's `webhooks` describe them. */
export type WebhookEvent = components['schemas']['Webhook_envelope_sent'] | components['schemas']['Webhook_envelope_viewed'] | components['schemas']['Webhook_envelope_signed'] | components['schemas']['Webhook_envelope_declined'] | components['schemas']['Webhook_envelope_voided'] | components['schemas']['Webhook_envelope_expired'] | components['schemas']['Webhook_envelope_completed'] | components['schemas']['Webhook_envelope_document_ready'] | components['schemas']['Webhook_webhook_test'];
/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, within five minutes of now) against the subscription's `whsec_…` secret,
 * and returns the event. Throws when the signature does not match: drop such a delivery.
 * `payload` must be the body exactly as received, before any JSON parsing.
 */
export declare function verifyWebhook(payload: string | Uint8Array, headers: Headers | Record<string, string | string[] | undefined>, secret: string): WebhookEvent;
