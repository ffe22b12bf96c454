import { Webhook } from 'standardwebhooks';
/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, within five minutes of now) against the subscription's `whsec_…` secret,
 * and returns the event. Throws when the signature does not match: drop such a delivery.
 * `payload` must be the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(payload, headers, secret) {
    const flat = {};
    const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
    for (const [name, value] of entries)
        if (value !== undefined)
            flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
    return new Webhook(secret).verify(body, flat);
}
