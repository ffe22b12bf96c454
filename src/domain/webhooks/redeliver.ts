import { and, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookSubscriptions } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { liveSubscription } from './subscriptions.js';
import { webhookTopics } from './webhook-topics.js';

export const deliveryNotFound = (id: string) =>
  new DomainError('delivery_not_found', 'This subscription has no delivery with that id (see GET /v1/webhooks/{id}/deliveries).', { delivery_id: id });

/**
 * POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver: the delivery's event again, as a new
 * delivery through the queue (retried like any other), with the same `webhook-id` and a fresh
 * signature. Asked of a disabled subscription, it enables it again, as a replay does.
 */
export async function redeliver(services: Services, companyId: string, subscriptionId: string, deliveryId: string): Promise<{ delivery_id: string; event_id: string }> {
  const subscription = await liveSubscription(services, companyId, subscriptionId);
  if (!isUuid(deliveryId)) throw deliveryNotFound(deliveryId);
  const { db } = services.database;
  const [earlier] = await db
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.deliveryId, deliveryId), eq(webhookDeliveries.subscriptionId, subscription.id), eq(webhookDeliveries.companyId, companyId)))
    .limit(1);
  if (!earlier) throw deliveryNotFound(deliveryId);
  if (subscription.disabledAt) {
    await db.update(webhookSubscriptions).set({ disabledAt: null, disabledReason: null }).where(eq(webhookSubscriptions.id, subscription.id));
  }
  const id = crypto.randomUUID();
  await services.queue.publish([
    {
      topic: webhookTopics.deliver,
      body: { event_id: earlier.eventId, subscription_id: subscription.id, delivery_id: id, origin: 'redelivery' },
      dedupeId: `redeliver.${id}`,
    },
  ]);
  return { delivery_id: id, event_id: earlier.eventId };
}
