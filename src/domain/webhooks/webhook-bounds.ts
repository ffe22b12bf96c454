/**
 * What a company may make of its webhooks, so that no repeated request grows rows, deliveries or
 * traffic without bound (docs/webhooks.md, "Limits"). A subscription, a replay or a redelivery each
 * multiplies what one event costs: without these, 60 subscriptions each replaying 30 days of events
 * sent hundreds of deliveries in seconds.
 */
import { type SQL, sql } from 'drizzle-orm';
import { companies } from '../../data/schema.js';
import type { Db, Statement } from '../../data/database.js';

/** Live subscriptions per company: the next is `422 webhook_limit_reached`. */
export const SUBSCRIPTIONS_PER_COMPANY = 25;
/** Replays a company may start in any 24 hours, whatever their subscriptions. */
export const REPLAYS_PER_DAY = 20;
/** Events a company's replays may hand out in any 24 hours; one replay may not carry more. */
export const REPLAYED_EVENTS_PER_DAY = 10_000;
/** Redeliveries a company may ask in any 24 hours. */
export const REDELIVERIES_PER_DAY = 500;
/** Test deliveries (`webhook.test`) a company may make in any hour: each is an event row kept 30 days. */
export const TEST_DELIVERIES_PER_HOUR = 60;

export const DAY_MS = 24 * 3600 * 1000;
export const HOUR_MS = 3600 * 1000;

/**
 * The first statement of a change counted against a company's webhook bounds: it takes the lock of
 * the company's row (an update that changes nothing), so that a second such change of the company
 * waits here and its count, made by its own next statement, sees the first one's row. Two requests
 * at the bound therefore get one. The lock does not block an insert that merely references the
 * company (that needs only a key-share lock).
 */
export const lockCompanyWebhooks = (q: Db, companyId: string): Statement =>
  q.execute(sql`update ${companies} set ${sql.identifier('name')} = ${companies.name} where ${companies.id} = ${companyId}`);

/** The moment `ms` before `now`, as a timestamp the database compares. */
export const before = (now: Date, ms: number): SQL => sql`${new Date(now.getTime() - ms).toISOString()}::timestamptz`;

/**
 * Seconds until a bound counted over a sliding window frees a place: when the oldest counted row,
 * made at `oldest`, leaves the window (at least one second).
 */
export const secondsUntilFree = (oldest: Date | null | undefined, windowMs: number, now: Date): number =>
  Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) + windowMs - now.getTime()) / 1000));
