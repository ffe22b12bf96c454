import { and, eq, isNull } from 'drizzle-orm';
import { webhookEvents, webhookSubscriptions } from '../../data/schema.js';
import type { VerbContext } from '../verb-context.js';
import { attemptDelivery, DELIVERY_ATTEMPTS, type Delivery, disableIfDead, ownDeliveryId } from './deliver-event.js';
import { settleRedelivery } from './redeliver.js';
import { continueReplay, endReplay } from './replay-events.js';
import { queueTopics } from '../queue-topics.js';

/** Queue consumer: one delivery message per live subscription of the company that wants this event. */
export async function dispatchWebhookEvent({ services }: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const eventId = String(body.event_id);
  // The event and the company's live subscriptions in one query: no row when the event is gone.
  const rows = await services.database.db
    .select({ kind: webhookEvents.kind, subscriptionId: webhookSubscriptions.id, events: webhookSubscriptions.events })
    .from(webhookEvents)
    .leftJoin(
      webhookSubscriptions,
      and(eq(webhookSubscriptions.companyId, webhookEvents.companyId), isNull(webhookSubscriptions.deletedAt), isNull(webhookSubscriptions.disabledAt)),
    )
    .where(eq(webhookEvents.id, eventId));
  const wanting = rows.flatMap(({ kind, subscriptionId, events }) => (subscriptionId && events?.includes(kind) ? [{ id: subscriptionId }] : []));
  await services.queue.publish(
    wanting.map((subscription) => ({
      topic: queueTopics.webhookDeliver,
      body: { event_id: eventId, subscription_id: subscription.id },
      dedupeId: `${eventId}.${subscription.id}`,
    })),
  );
}

/** A failed attempt that the queue should retry later. */
export class DeliveryFailed extends Error {}

/** The delivery a message names: a replay's or redelivery's carries its id; the event's own is derived. */
async function deliveryOf(body: Record<string, unknown>, eventId: string, subscriptionId: string): Promise<Delivery> {
  if (typeof body.delivery_id === 'string' && (body.origin === 'replay' || body.origin === 'redelivery')) return { id: body.delivery_id, origin: body.origin };
  return { id: await ownDeliveryId(eventId, subscriptionId), origin: 'event' };
}

/**
 * Queue consumer: one attempt to deliver an event to one subscription. A failure throws, so the
 * queue retries it with backoff (at least once; the `webhook-id` stays the same across attempts so
 * receivers can drop repeats), until the last attempt, which is recorded and ends the delivery.
 * A subscription removed or disabled meanwhile gets nothing more. A replay's delivery hands the
 * replay's next event to the queue once attempted, whatever came of it, so a replay goes out in the
 * order the events occurred.
 */
export async function deliverWebhookEvent({ services }: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const eventId = String(body.event_id);
  const replayId = typeof body.replay_id === 'string' ? body.replay_id : null;
  // A redelivery holds its event (no second one while it is pending) until its delivery ends here.
  const ended = async () => {
    if (body.origin === 'redelivery' && typeof body.delivery_id === 'string') await settleRedelivery(services, body.delivery_id);
  };
  const [row] = await services.database.db
    .select({ event: webhookEvents, subscription: webhookSubscriptions })
    .from(webhookSubscriptions)
    .leftJoin(webhookEvents, and(eq(webhookEvents.id, eventId), eq(webhookEvents.companyId, webhookSubscriptions.companyId)))
    .where(eq(webhookSubscriptions.id, String(body.subscription_id)))
    .limit(1);
  if (!row || row.subscription.deletedAt || row.subscription.disabledAt) {
    if (replayId) await endReplay(services, replayId);
    return ended();
  }
  if (!row.event) {
    // Removed at 30 days while it waited in the queue: nothing to deliver, but a replay goes on past it.
    if (replayId) await continueReplay(services, replayId, eventId);
    return ended();
  }
  const result = await attemptDelivery(services, row.event, row.subscription, await deliveryOf(body, eventId, row.subscription.id));
  if (replayId) await continueReplay(services, replayId, eventId);
  if (result.delivered || result.gone || result.errorType === 'refused_target') return ended();
  if (result.attempt >= DELIVERY_ATTEMPTS) {
    await ended();
    return disableIfDead(services, row.subscription);
  }
  throw new DeliveryFailed(`Attempt ${result.attempt} failed (${result.errorType}).`);
}
