import { and, count, eq, isNull } from 'drizzle-orm';
import { webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../data/schema.js';
import type { Services } from '../../services.js';
import { isPrivateHost, signWebhook } from './standard-webhooks.js';

export const webhookTopics = { deliver: 'webhook.deliver' } as const;

/** Queue consumer: one delivery message per subscription of the company that wants this event. */
export async function dispatchWebhookEvent(services: Services, body: Record<string, unknown>): Promise<void> {
  const eventId = String(body.event_id);
  const { db } = services.database;
  const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).limit(1);
  if (!event) return;
  const subscriptions = await db
    .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, event.companyId), isNull(webhookSubscriptions.deletedAt)));
  const wanting = subscriptions.filter((subscription) => subscription.events.includes(event.kind));
  await services.queue.publish(
    wanting.map((subscription) => ({
      topic: webhookTopics.deliver,
      body: { event_id: eventId, subscription_id: subscription.id },
      dedupeId: `${eventId}.${subscription.id}`,
    })),
  );
}

/**
 * Queue consumer: one signed attempt to deliver an event to one subscription, recorded whatever
 * happens. A failure throws, so the queue retries it with backoff (at least once delivery; the
 * `webhook-id` stays the same across attempts so receivers can drop repeats).
 */
export async function deliverWebhookEvent(services: Services, body: Record<string, unknown>): Promise<void> {
  const { db } = services.database;
  const [row] = await db
    .select({ event: webhookEvents, subscription: webhookSubscriptions })
    .from(webhookEvents)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.companyId, webhookEvents.companyId))
    .where(and(eq(webhookEvents.id, String(body.event_id)), eq(webhookSubscriptions.id, String(body.subscription_id))))
    .limit(1);
  if (!row || row.subscription.deletedAt) return;
  const { event, subscription } = row;
  const [previous] = await db
    .select({ attempts: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, event.id), eq(webhookDeliveries.subscriptionId, subscription.id)));
  const attempt = (previous?.attempts ?? 0) + 1;
  const record = (result: { statusCode?: number; error?: string; durationMs: number }) =>
    db.insert(webhookDeliveries).values({
      companyId: event.companyId,
      eventId: event.id,
      subscriptionId: subscription.id,
      attempt,
      statusCode: result.statusCode ?? null,
      error: result.error ?? null,
      durationMs: result.durationMs,
    });

  const url = new URL(subscription.url);
  if (!services.config.allowPrivateWebhookTargets && isPrivateHost(url.hostname)) {
    await record({ error: 'refused: private or loopback address', durationMs: 0 });
    return;
  }
  const payload = JSON.stringify({ type: event.kind, timestamp: event.createdAt.toISOString(), data: event.payload });
  const timestamp = Math.floor(services.clock.now().getTime() / 1000);
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signWebhook(subscription.secret, event.id, timestamp, payload),
      },
      body: payload,
    });
    await record({ statusCode: response.status, durationMs: Date.now() - started });
    if (response.status < 200 || response.status >= 300) throw new Error(`webhook answered ${response.status}`);
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('webhook answered')) throw err;
    await record({ error: err instanceof Error ? err.name : 'error', durationMs: Date.now() - started });
    throw err;
  }
}
