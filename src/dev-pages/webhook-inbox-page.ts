import { and, inArray, isNull } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import { Webhook } from 'standardwebhooks';
import { webhookSubscriptions } from '../data/schema.js';
import { openSecret, secretKeysOf } from '../domain/webhooks/secret-box.js';
import type { Services } from '../services.js';

/**
 * The embedded server's webhook inbox: a subscriber endpoint to give `POST /v1/webhooks` while
 * developing, so that deliveries can be watched without running a receiver of one's own. It keeps
 * what it receives, newest first, and checks each signature as a subscriber should (with the
 * `standardwebhooks` package, not our own signing code, so that a mistake in our signing shows).
 * Shown as a page at `/dev/webhooks` and as JSON at `/dev/webhooks.json`.
 *
 * Only the Node entry (`npm start`) mounts it, never the Worker: it accepts posts from anyone,
 * opens subscription secrets of every company to verify them, and shows what it received to
 * whoever asks. That is fine on a developer's machine and nowhere else.
 */

/** A long-running dev server keeps only the newest deliveries. */
const CAPACITY = 500;
/** A finished PDF travels as base64 in `document_ready`: its first characters and its length are enough to see. */
const PREVIEW_CHARS = 200;
/** A body that is not JSON is kept up to this many characters. */
const TEXT_BODY_CHARS = 20_000;

export type InboxDelivery = {
  id: string;
  received_at: string;
  /** The path (and query) it was posted to, e.g. `/dev/webhooks/inbox/orders`. */
  path: string;
  /** What the inbox answered: 200, or the status asked for with `?status=`. */
  answered_status: number;
  webhook_id: string | null;
  webhook_timestamp: string | null;
  /** The body's `type`, when it is JSON with one. */
  event_type: string | null;
  headers: Record<string, string>;
  /** The body as JSON (with long `*_base64` strings cut short), or as text when it is not JSON. */
  body: unknown;
  body_length: number;
  verified: boolean;
  /** The subscription whose secret verified the signature. */
  subscription_id: string | null;
  /** Why it did not verify: the verifier's message, or that no subscription has this URL. */
  verification_error: string | null;
  /** `v1,` entries in `webhook-signature`: two during the 24 hours after a secret rotation. */
  signatures: number;
  /** An earlier delivery in the inbox had the same `webhook-id`: a retry, replay or redelivery a receiver drops. */
  repeat: boolean;
  /** The event's place in its envelope's history (`data.sequence`). */
  sequence: number | null;
  /** `data.document.download_url` of envelope.document_ready: a link to the finished PDF. */
  download_url: string | null;
};

export function devWebhookRoutes(services: Services) {
  const deliveries: InboxDelivery[] = [];
  const app = new Hono();

  const receive = async (c: Context) => {
    const url = new URL(c.req.url);
    const path = `${url.pathname}${url.search}`;
    const text = await c.req.text();
    const headers = Object.fromEntries(c.req.raw.headers);
    const verdict = await verify(services, subscriberUrls(services.config.baseUrl, url), text, headers);
    const status = askedStatus(c.req.query('status'));
    let parsed: unknown;
    try {
      parsed = abbreviated(JSON.parse(text));
    } catch {
      parsed = text.length > TEXT_BODY_CHARS ? `${text.slice(0, TEXT_BODY_CHARS)}… (${text.length} characters)` : text;
    }
    const type = (parsed as { type?: unknown } | null)?.type;
    const data = (parsed as { data?: { sequence?: unknown; document?: { download_url?: unknown } } } | null)?.data;
    const webhookId = headers['webhook-id'] ?? null;
    deliveries.unshift({
      id: crypto.randomUUID(),
      received_at: new Date().toISOString(),
      path,
      answered_status: status,
      webhook_id: headers['webhook-id'] ?? null,
      webhook_timestamp: headers['webhook-timestamp'] ?? null,
      event_type: typeof type === 'string' ? type : null,
      headers,
      body: parsed,
      body_length: text.length,
      ...verdict,
      signatures: (headers['webhook-signature'] ?? '').split(' ').filter((entry) => entry.startsWith('v1,')).length,
      repeat: webhookId !== null && deliveries.some((earlier) => earlier.webhook_id === webhookId),
      sequence: typeof data?.sequence === 'number' ? data.sequence : null,
      download_url: typeof data?.document?.download_url === 'string' ? data.document.download_url : null,
    });
    deliveries.length = Math.min(deliveries.length, CAPACITY);
    // 204, 205 and 304 may not carry a body.
    return [204, 205, 304].includes(status) ? c.body(null, status as StatusCode) : c.json({ ok: status < 300 }, status as ContentfulStatusCode);
  };

  app.post('/webhooks/inbox', receive);
  app.post('/webhooks/inbox/:name', receive);
  app.get('/webhooks.json', (c) => c.json({ data: deliveries }));
  app.get('/webhooks', (c) => c.html(inboxPage(deliveries, `${services.config.baseUrl.replace(/\/+$/, '')}/dev/webhooks/inbox`)));
  return app;
}

/**
 * The URLs a subscription may have used for this request: the service's public address with this
 * path (what `npm start` prints), and the address the request itself came to (another host name
 * or port, a test server). Each with and without the query, since `?status=500` may be part of
 * the subscribed URL or not.
 */
function subscriberUrls(baseUrl: string, requested: URL): string[] {
  const base = baseUrl.replace(/\/+$/, '');
  const urls = [`${base}${requested.pathname}${requested.search}`, requested.href, `${base}${requested.pathname}`, `${requested.origin}${requested.pathname}`];
  return [...new Set(urls)];
}

async function verify(
  services: Services,
  urls: string[],
  body: string,
  headers: Record<string, string>,
): Promise<Pick<InboxDelivery, 'verified' | 'subscription_id' | 'verification_error'>> {
  // Any company's live subscriptions: on a developer's machine several may point at the inbox.
  const subscriptions = await services.database.db
    .select({
      id: webhookSubscriptions.id,
      secretCiphertext: webhookSubscriptions.secretCiphertext,
      secretKeyId: webhookSubscriptions.secretKeyId,
    })
    .from(webhookSubscriptions)
    .where(and(inArray(webhookSubscriptions.url, urls), isNull(webhookSubscriptions.deletedAt)));
  if (subscriptions.length === 0) {
    return { verified: false, subscription_id: null, verification_error: `No live webhook subscription has the URL ${urls[0]}.` };
  }
  const failures = new Set<string>();
  const keys = await secretKeysOf(services.config);
  for (const subscription of subscriptions) {
    try {
      const secret = await openSecret(keys, subscription.id, { ciphertext: subscription.secretCiphertext, keyId: subscription.secretKeyId });
      // The body is parsed by the inbox itself: a verified body that is not JSON is still verified.
      new Webhook(secret).verify(body, headers, { jsonParse: false });
      return { verified: true, subscription_id: subscription.id, verification_error: null };
    } catch (err) {
      failures.add(err instanceof Error ? err.message : String(err));
    }
  }
  return { verified: false, subscription_id: null, verification_error: [...failures].join('; ') };
}

/** `?status=500` lets a developer watch retries and `?status=410` the subscription being disabled. */
function askedStatus(query: string | undefined): number {
  const status = Number(query);
  return query !== undefined && Number.isInteger(status) && status >= 200 && status <= 599 ? status : 200;
}

/** The body with each long `*_base64` string cut to its first characters, and its length beside it. */
function abbreviated(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(abbreviated);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines properties, so a `__proto__` key in the body stays a plain key.
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]): [string, unknown][] =>
      key.endsWith('_base64') && typeof inner === 'string' && inner.length > PREVIEW_CHARS
        ? [
            [key, `${inner.slice(0, PREVIEW_CHARS)}…`],
            [`${key}_length`, inner.length],
          ]
        : [[key, abbreviated(inner)]],
    ),
  );
}

function inboxPage(deliveries: readonly InboxDelivery[], inboxUrl: string) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>Webhook inbox</title>
        <style>
          body { font: 15px/1.5 system-ui, sans-serif; max-width: 860px; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
          article { border: 1px solid #d8d8de; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
          h2 { font-size: 1.05rem; margin: 0 0 .25rem; }
          .meta { color: #5f6368; font-size: .85rem; }
          .ok { color: #1e7b34; }
          .bad { color: #b3261e; }
          pre { white-space: pre-wrap; word-break: break-all; font: .85rem/1.4 ui-monospace, monospace; }
          summary { cursor: pointer; color: #5f6368; font-size: .85rem; }
        </style>
      </head>
      <body>
        <h1>Webhook inbox</h1>
        <p class="meta">
          Deliveries received at ${inboxUrl} (or ${inboxUrl}/<i>name</i>), newest first, with whether their signature verifies
          with the subscription's secret. Subscribe that URL with POST /v1/webhooks; add ?status=500 or ?status=410 to it to
          have the inbox answer with that status. A repeated webhook-id (a retry, a replay, a redelivery) is marked as a
          repeat, which a receiver drops; after a secret rotation, deliveries carry two signatures for 24 hours.
        </p>
        ${deliveries.length === 0 ? html`<p>No deliveries yet.</p>` : ''}
        ${raw(deliveries.map(deliveryArticle).join(''))}
      </body>
    </html>`;
}

const deliveryArticle = (delivery: InboxDelivery) =>
  html`<article>
    <h2>
      ${delivery.event_type ?? '(no type)'} ·
      ${delivery.verified ? html`<span class="ok">verified</span>` : html`<span class="bad">not verified</span>`}
    </h2>
    <div class="meta">
      ${delivery.received_at} · POST ${delivery.path} · answered ${delivery.answered_status} · webhook-id ${delivery.webhook_id ?? '(none)'}
      ${delivery.repeat ? html`· <strong>repeat</strong>` : ''} ${delivery.sequence !== null ? `· sequence ${delivery.sequence}` : ''}
      · ${delivery.signatures === 1 ? '1 signature' : `${delivery.signatures} signatures`}
    </div>
    ${delivery.download_url ? html`<div class="meta"><a href="${delivery.download_url}">Download the finished PDF</a> (the link works 24 hours)</div>` : ''}
    <div class="meta">
      ${delivery.verified ? `Signed with the secret of subscription ${delivery.subscription_id}.` : `Not verified: ${delivery.verification_error}`}
    </div>
    <details>
      <summary>Headers</summary>
      <pre>${Object.entries(delivery.headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')}</pre>
    </details>
    <pre>${typeof delivery.body === 'string' ? delivery.body : JSON.stringify(delivery.body, null, 2)}</pre>
  </article>`;
