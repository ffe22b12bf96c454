import { and, asc, count, eq, gt, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import type { EventKind } from '../../data/event-kinds.js';
import { webhookEvents, webhookReplays, webhookSubscriptions } from '../../data/schema.js';
import { DomainError, type Issue, validationFailed } from '../../errors.js';
import { uuidFromName } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { CompanyContext } from '../verb-context.js';
import { EVENT_RETENTION_MS } from './event-retention.js';
import { liveSubscription } from './subscriptions.js';
import { before, DAY_MS, lockCompanyWebhooks, REPLAYED_EVENTS_PER_DAY, REPLAYS_PER_DAY, secondsUntilFree } from './webhook-bounds.js';
import { queueTopics } from '../queue-topics.js';

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
 * caller says the endpoint is back. One replay runs per subscription at a time, and a company's
 * replays share a budget of REPLAYS_PER_DAY replays and REPLAYED_EVENTS_PER_DAY events in any 24
 * hours, whatever their subscriptions (webhook-bounds.ts).
 */
export async function startReplay(
  ctx: CompanyContext,
  { subscriptionId, request }: { subscriptionId: string; request: ReplayRequest },
): Promise<{ replayed: number }> {
  const { services, companyId, now } = ctx;
  const subscription = await liveSubscription(services, companyId, subscriptionId);
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
  const [counted] = await db
    .select({ total: count() })
    .from(webhookEvents)
    .where(inWindow(companyId, kinds, request.since, until));
  const total = counted?.total ?? 0;
  if (total > REPLAYED_EVENTS_PER_DAY) {
    throw validationFailed(
      [
        {
          path: 'since',
          message: `The window holds ${total.toLocaleString('en-US')} events; a replay may carry at most ${REPLAYED_EVENTS_PER_DAY.toLocaleString('en-US')}: narrow the window or the kinds.`,
        },
      ],
      'The replay cannot be made.',
    );
  }
  const id = crypto.randomUUID();
  const dayAgo = before(now, DAY_MS);
  const ofTheDay = sql`${webhookReplays.companyId} = ${companyId} and ${webhookReplays.createdAt} > ${dayAgo}`;
  const withinBudget = sql`(select count(*) from ${webhookReplays} where ${ofTheDay}) < ${REPLAYS_PER_DAY}
    and (select coalesce(sum(${webhookReplays.total}), 0) from ${webhookReplays} where ${ofTheDay}) + ${total} <= ${REPLAYED_EVENTS_PER_DAY}`;
  await services.database.atomic((q) => [
    lockCompanyWebhooks(q, companyId),
    // A replay whose chain broke gives way, so that the subscription is not blocked for good.
    q
      .update(webhookReplays)
      .set({ finishedAt: now })
      .where(
        and(
          eq(webhookReplays.subscriptionId, subscription.id),
          isNull(webhookReplays.finishedAt),
          lt(webhookReplays.progressedAt, new Date(now.getTime() - REPLAY_STALLED_AFTER_MS)),
        ),
      ),
    // Skipped (on conflict) while another replay of the subscription runs, or (by the condition) past the day's budget.
    insertWhen(
      q,
      webhookReplays,
      { id, companyId, subscriptionId: subscription.id, since: request.since, until, events: kinds, total, createdAt: now, progressedAt: now },
      withinBudget,
    ),
  ]);
  const [started] = await db.select({ id: webhookReplays.id }).from(webhookReplays).where(eq(webhookReplays.id, id)).limit(1);
  if (!started) throw await refusal(services, companyId, subscription.id, total, now);
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

/** Why a replay was not started: another of the subscription runs, or the company's day's budget is spent. */
async function refusal(services: Services, companyId: string, subscriptionId: string, total: number, now: Date): Promise<DomainError> {
  const { db } = services.database;
  const [running] = await db
    .select({ id: webhookReplays.id })
    .from(webhookReplays)
    .where(and(eq(webhookReplays.subscriptionId, subscriptionId), isNull(webhookReplays.finishedAt)))
    .limit(1);
  if (running) {
    return new DomainError(
      'replay_in_progress',
      'A replay of this subscription is still running; one runs at a time. Try again once it has handed out its events.',
      { webhook_id: subscriptionId },
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }
  // The day's replays, oldest first (at most REPLAYS_PER_DAY): the wait is until enough of them leave the day.
  const day = await db
    .select({ createdAt: webhookReplays.createdAt, total: webhookReplays.total })
    .from(webhookReplays)
    .where(and(eq(webhookReplays.companyId, companyId), gt(webhookReplays.createdAt, new Date(now.getTime() - DAY_MS))))
    .orderBy(asc(webhookReplays.createdAt));
  let replays = day.length;
  let events = day.reduce((sum, replay) => sum + replay.total, 0);
  let oldest: Date | undefined;
  for (const replay of day) {
    if (replays < REPLAYS_PER_DAY && events + total <= REPLAYED_EVENTS_PER_DAY) break;
    replays -= 1;
    events -= replay.total;
    oldest = replay.createdAt;
  }
  return new DomainError(
    'rate_limited',
    `A company may start ${REPLAYS_PER_DAY} replays carrying ${REPLAYED_EVENTS_PER_DAY.toLocaleString('en-US')} events in any 24 hours; this one (${total} events) would pass that. Try again later, or narrow it.`,
    {
      limit: REPLAYS_PER_DAY,
      events_limit: REPLAYED_EVENTS_PER_DAY,
      window_seconds: DAY_MS / 1000,
      replays: day.length,
      replayed_events: day.reduce((sum, replay) => sum + replay.total, 0),
    },
    { retryAfterSeconds: secondsUntilFree(oldest, DAY_MS, now) },
  );
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

// A subscription's kinds were checked against the catalog when it was made (EventKind).
const inWindow = (companyId: string, kinds: string[], since: Date, until: Date) =>
  and(
    eq(webhookEvents.companyId, companyId),
    inArray(webhookEvents.kind, kinds as EventKind[]),
    gte(webhookEvents.createdAt, since),
    lte(webhookEvents.createdAt, until),
  );

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
  const atCursor = and(
    eq(webhookReplays.id, replayId),
    current === null ? isNull(webhookReplays.cursor) : eq(webhookReplays.cursor, current),
    isNull(webhookReplays.finishedAt),
  );
  const now = services.clock.now();
  if (!next) {
    await db.update(webhookReplays).set({ finishedAt: now, progressedAt: now }).where(atCursor);
    return;
  }
  const deliveryId = await uuidFromName(`replay.${replay.id}.${next.id}`);
  await services.queue.publish([
    {
      topic: queueTopics.webhookDeliver,
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
  const after = replay.cursor
    ? sql`${occurrence} > (${replay.cursorAt?.toISOString() ?? null}::timestamptz, ${replay.cursorSequence}::integer, ${replay.cursor})`
    : undefined;
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
  await services.database.db
    .update(webhookReplays)
    .set({ finishedAt: now, progressedAt: now })
    .where(and(eq(webhookReplays.id, replayId), isNull(webhookReplays.finishedAt)));
}
