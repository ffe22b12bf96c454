import { Webhook } from 'standardwebhooks';
import type { components } from './schema.js';

/** Every event a subscription can receive, as the OpenAPI document's `webhooks` describe them. */
export type WebhookEvent =
  | components['schemas']['Webhook_envelope_sent']
  | components['schemas']['Webhook_envelope_viewed']
  | components['schemas']['Webhook_envelope_signed']
  | components['schemas']['Webhook_envelope_declined']
  | components['schemas']['Webhook_envelope_voided']
  | components['schemas']['Webhook_envelope_expired']
  | components['schemas']['Webhook_envelope_completed']
  | components['schemas']['Webhook_envelope_document_ready']
  | components['schemas']['Webhook_webhook_test'];

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, within five minutes of now) against the subscription's `whsec_…` secret,
 * and returns the event. Throws when the signature does not match: drop such a delivery.
 * `payload` must be the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: Headers | Record<string, string | string[] | undefined>, secret: string): WebhookEvent {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, flat) as WebhookEvent;
}
