import { and, asc, count, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../data/errors.js';
import { webhookEvents, webhookReplays, webhookSubscriptions } from '../../data/schema.js';
import { DomainError, type Issue, validationFailed } from '../../errors.js';
import { uuidFromName } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { EVENT_RETENTION_MS } from './event-retention.js';
import { liveSubscription } from './subscriptions.js';
import { webhookTopics } from './webhook-topics.js';

type Replay = typeof webhookReplays.$inferSelect;

/**
 * A replay that has not handed on an event for this long is taken as stopped (its chain broken by
 * a crash between steps) and no longer keeps another from starting. Each step is one delivery
 * attempt (at most 10 s) and a queue hand-off, so a running replay moves far more often.
 */
export const REPLAY_STALLED_AFTER_MS = 15 * 60 * 1000;
/** What a refused second replay is told to wait: about the time a few dozen deliveries take. */
const RETRY_AFTER_SECONDS = 30;

export type ReplayRequest = { since: Date; until?: Date | undefined; events?: string[] | undefined };

/**
 * POST /v1/webhooks/{id}/replay: delivers again every event of the company of the subscription's
 * kinds (or the asked subset) that occurred in the window, oldest first, each with its original
 * `webhook-id` and a fresh signature. The window must lie within the 30 days events are kept.
 * Events from before the subscription was made are included: a receiver that subscribed again after
 * losing its data gets them back. A replay asked of a disabled subscription enables it again: the
 * caller says the endpoint is back. One replay runs per subscription at a time.
 */
export async function startReplay(services: Services, companyId: string, subscriptionId: string, request: ReplayRequest): Promise<{ replayed: number }> {
  const subscription = await liveSubscription(services, companyId, subscriptionId);
  const now = services.clock.now();
  const until = request.until ?? now;
  const kinds = [...new Set(request.events ?? subscription.events)];
  const issues = windowIssues(request.since, until, request.until !== undefined, now);
  for (const [index, kind] of (request.events ?? []).entries()) {
    if (!subscription.events.includes(kind)) {
      issues.push({ path: `events.${index}`, message: `The subscription does not receive ${kind}; it receives ${subscription.events.join(', ')}.` });
    }
  }
  if (issues.length > 0) throw validationFailed(issues, 'The replay cannot be made.');

  const { db } = services.database;
  const [counted] = await db.select({ total: count() }).from(webhookEvents).where(inWindow(companyId, kinds, request.since, until));
  const total = counted?.total ?? 0;
  // A replay whose chain broke gives way, so that the subscription is not blocked for good.
  await db
    .update(webhookReplays)
    .set({ finishedAt: now })
    .where(and(eq(webhookReplays.subscriptionId, subscription.id), isNull(webhookReplays.finishedAt), lt(webhookReplays.progressedAt, new Date(now.getTime() - REPLAY_STALLED_AFTER_MS))));
  const id = crypto.randomUUID();
  try {
    await db.insert(webhookReplays).values({ id, companyId, subscriptionId: subscription.id, since: request.since, until, events: kinds, total, createdAt: now, progressedAt: now });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw new DomainError(
      'replay_in_progress',
      'A replay of this subscription is still running; one runs at a time. Try again once it has handed out its events.',
      { webhook_id: subscription.id },
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }
  if (subscription.disabledAt) {
    await db.update(webhookSubscriptions).set({ disabledAt: null, disabledReason: null }).where(eq(webhookSubscriptions.id, subscription.id));
  }
  try {
    await continueReplay(services, id, null);
  } catch (err) {
    // Nothing was handed out: the replay must not block the next one.
    await endReplay(services, id);
    throw err;
  }
  return { replayed: total };
}

function windowIssues(since: Date, until: Date, untilGiven: boolean, now: Date): Issue[] {
  const oldest = new Date(now.getTime() - EVENT_RETENTION_MS);
  const issues: Issue[] = [];
  if (since < oldest) issues.push({ path: 'since', message: `Events are kept 30 days: since must be ${oldest.toISOString()} or later.` });
  if (since > now) issues.push({ path: 'since', message: 'since is in the future.' });
  if (untilGiven && until > now) issues.push({ path: 'until', message: 'until is in the future; leave it out to replay up to now.' });
  if (until < since) issues.push({ path: 'until', message: 'until is before since.' });
  return issues;
}

const inWindow = (companyId: string, kinds: string[], since: Date, until: Date) =>
  and(eq(webhookEvents.companyId, companyId), inArray(webhookEvents.kind, kinds), gte(webhookEvents.createdAt, since), lte(webhookEvents.createdAt, until));

/** The order events occurred in: by time, then (for one envelope's events at one instant) by sequence. */
const occurrence = sql`(${webhookEvents.createdAt}, coalesce(${webhookEvents.sequence}, 0), ${webhookEvents.id})`;

/**
 * Hands the replay's event after `current` (the first when null) to the queue, or ends the replay
 * when none is left. Only the step from the replay's current cursor acts, so a step repeated (the
 * queue delivers at least once) or a stale one does nothing; the hand-off comes before the cursor
 * moves, so a crash between the two repeats the hand-off (deduplicated), never skips an event.
 */
export async function continueReplay(services: Services, replayId: string, current: string | null): Promise<void> {
  const { db } = services.database;
  const [replay] = await db.select().from(webhookReplays).where(eq(webhookReplays.id, replayId)).limit(1);
  if (!replay || replay.finishedAt || replay.cursor !== current) return;
  const next = await nextEvent(services, replay);
  const atCursor = and(eq(webhookReplays.id, replayId), current === null ? isNull(webhookReplays.cursor) : eq(webhookReplays.cursor, current), isNull(webhookReplays.finishedAt));
  const now = services.clock.now();
  if (!next) {
    await db.update(webhookReplays).set({ finishedAt: now, progressedAt: now }).where(atCursor);
    return;
  }
  const deliveryId = await uuidFromName(`replay.${replay.id}.${next.id}`);
  await services.queue.publish([
    {
      topic: webhookTopics.deliver,
      body: { event_id: next.id, subscription_id: replay.subscriptionId, delivery_id: deliveryId, origin: 'replay', replay_id: replay.id },
      dedupeId: `replay.${replay.id}.${next.id}`,
    },
  ]);
  await db
    .update(webhookReplays)
    .set({ cursor: next.id, cursorAt: next.createdAt, cursorSequence: next.sequence, handed: sql`${webhookReplays.handed} + 1`, progressedAt: now })
    .where(atCursor);
}

/**
 * The replay's next event in the order events occurred. The place after which to look is the
 * cursor's own, kept on the replay: a replay reaching back 30 days outlives the oldest events it
 * handed on, which housekeeping removes meanwhile.
 */
async function nextEvent(services: Services, replay: Replay): Promise<{ id: string; createdAt: Date; sequence: number } | null> {
  const after = replay.cursor ? sql`${occurrence} > (${replay.cursorAt?.toISOString() ?? null}::timestamptz, ${replay.cursorSequence}::integer, ${replay.cursor})` : undefined;
  const sequence = sql<number>`coalesce(${webhookEvents.sequence}, 0)`;
  const [row] = await services.database.db
    .select({ id: webhookEvents.id, createdAt: webhookEvents.createdAt, sequence })
    .from(webhookEvents)
    .where(and(inWindow(replay.companyId, replay.events, replay.since, replay.until), after))
    .orderBy(asc(webhookEvents.createdAt), asc(sequence), asc(webhookEvents.id))
    .limit(1);
  return row ?? null;
}

/** Ends a replay whatever its cursor: its subscription is gone, or its start failed. */
export async function endReplay(services: Services, replayId: string): Promise<void> {
  const now = services.clock.now();
  await services.database.db.update(webhookReplays).set({ finishedAt: now, progressedAt: now }).where(and(eq(webhookReplays.id, replayId), isNull(webhookReplays.finishedAt)));
}
