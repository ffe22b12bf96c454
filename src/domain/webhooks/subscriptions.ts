import { and, count, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../data/errors.js';
import { webhookSubscriptions } from '../../data/schema.js';
import { DomainError, validationFailed } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';
import type { EventKind } from './event-catalog.js';
import { sealSecret, secretKeysOf } from './secret-box.js';
import { newWebhookSecret } from './standard-webhooks.js';
import { resolvedTargetProblem, webhookEndpoint, webhookUrlProblem } from './webhook-target.js';

type Row = typeof webhookSubscriptions.$inferSelect;

export type Subscription = {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  /** `disabled` after the subscriber answered 410 Gone, or kept failing: nothing more is delivered. */
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  created_at: string;
};

export const toSubscription = (row: Row): Subscription => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  status: row.disabledAt ? 'disabled' : 'active',
  disabled_reason: row.disabledReason,
  created_at: row.createdAt.toISOString(),
});

export const webhookNotFound = (id: string) => new DomainError('webhook_not_found', 'No webhook subscription with that id exists in this company.', { webhook_id: id });

/** Checks a subscriber URL where it is given: its form, and (where the runtime can) where its host resolves. */
async function urlProblem(services: Services, url: string): Promise<string | null> {
  const allowPrivate = services.config.allowPrivateWebhookTargets === true;
  return webhookUrlProblem(url, { allowPrivate }) ?? resolvedTargetProblem(new URL(url), services.hostResolver, { allowPrivate });
}

/**
 * POST /v1/webhooks: subscribes a URL to event kinds. Answers the subscription with its signing
 * secret, which is shown this once and kept only sealed. One subscription per endpoint in a company:
 * the URL is stored in its normalised spelling (`webhookEndpoint`), and any spelling of a subscribed
 * endpoint gets `webhook_exists`, so that no event is ever delivered twice to one receiver.
 */
export async function subscribe(
  services: Services,
  companyId: string,
  input: { url: string; events: EventKind[]; description?: string | null | undefined },
): Promise<Subscription & { secret: string }> {
  const problem = await urlProblem(services, input.url);
  if (problem) throw validationFailed([{ path: 'url', message: problem }], 'The webhook URL cannot be used.');
  const url = webhookEndpoint(input.url);
  const { db } = services.database;
  const taken = await subscriptionOfEndpoint(services, companyId, url);
  if (taken) throw subscribedAlready(url, taken);

  const id = crypto.randomUUID();
  const secret = newWebhookSecret();
  const sealed = await sealSecret(await secretKeysOf(services.config), id, secret);
  try {
    const [row] = await db
      .insert(webhookSubscriptions)
      .values({
        id,
        companyId,
        url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        secretCiphertext: sealed.ciphertext,
        secretKeyId: sealed.keyId,
        createdAt: services.clock.now(),
      })
      .returning();
    return { ...toSubscription(row!), secret };
  } catch (err) {
    // A twin subscribing the same endpoint at the same moment, in any spelling: the database keeps one.
    if (isUniqueViolation(err)) throw subscribedAlready(url, null);
    throw err;
  }
}

/**
 * The id of the company's live subscription to this endpoint, if any. Subscriptions stored before
 * URLs were normalised keep the spelling they were given, so each stored URL is compared in its
 * normalised form, not as text; the unique index on the stored text still settles twins racing
 * with one spelling.
 */
async function subscriptionOfEndpoint(services: Services, companyId: string, endpoint: string): Promise<string | null> {
  const live = await services.database.db
    .select({ id: webhookSubscriptions.id, url: webhookSubscriptions.url })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), isNull(webhookSubscriptions.deletedAt)));
  return live.find((row) => sameEndpoint(row.url, endpoint))?.id ?? null;
}

function sameEndpoint(stored: string, endpoint: string): boolean {
  try {
    return webhookEndpoint(stored) === endpoint;
  } catch {
    return false;
  }
}

const subscribedAlready = (url: string, id: string | null) =>
  new DomainError('webhook_exists', 'This endpoint is already subscribed (URLs are compared in their normalised form); change its events by removing it and subscribing again.', {
    url,
    ...(id ? { webhook_id: id } : {}),
  });

/** GET /v1/webhooks: the company's live subscriptions, newest first, never with their secrets. */
export async function listSubscriptions(services: Services, companyId: string, page: number, perPage: number): Promise<Page<Subscription>> {
  const live = and(eq(webhookSubscriptions.companyId, companyId), isNull(webhookSubscriptions.deletedAt));
  const { db } = services.database;
  const rows = await db
    .select({ ...getTableColumns(webhookSubscriptions), total: totalOfAll() })
    .from(webhookSubscriptions)
    .where(live)
    .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  return pageWithTotal(rows, toSubscription, page, perPage, () => db.select({ total: count() }).from(webhookSubscriptions).where(live));
}

/** A live subscription of the company, or `webhook_not_found` (also for another company's id). */
export async function liveSubscription(services: Services, companyId: string, id: string): Promise<Row> {
  if (!isUuid(id)) throw webhookNotFound(id);
  const [row] = await services.database.db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId), isNull(webhookSubscriptions.deletedAt)))
    .limit(1);
  if (!row) throw webhookNotFound(id);
  return row;
}

/** DELETE /v1/webhooks/{id}: nothing more is delivered to it; a second delete is `webhook_not_found`. */
export async function unsubscribe(services: Services, companyId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw webhookNotFound(id);
  const [removed] = await services.database.db
    .update(webhookSubscriptions)
    .set({ deletedAt: services.clock.now() })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId), sql`${webhookSubscriptions.deletedAt} is null`))
    .returning({ id: webhookSubscriptions.id });
  if (!removed) throw webhookNotFound(id);
}
