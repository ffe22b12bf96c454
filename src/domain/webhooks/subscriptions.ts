import { and, count, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { webhookSubscriptions } from '../../data/schema.js';
import { DomainError, validationFailed } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { CompanyReadContext, PageRequest } from '../read-context.js';
import type { CompanyContext } from '../verb-context.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';
import type { EventKind } from './event-catalog.js';
import { sealSecret, secretKeysOf } from './secret-box.js';
import { newWebhookSecret } from './standard-webhooks.js';
import { lockCompanyWebhooks, SUBSCRIPTIONS_PER_COMPANY } from './webhook-bounds.js';
import { endpointKey, resolvedTargetProblem, webhookEndpoint, webhookUrlProblem } from './webhook-target.js';

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

export const webhookNotFound = (id: string) =>
  new DomainError('webhook_not_found', 'No webhook subscription with that id exists in this company.', { webhook_id: id });

/** Checks a subscriber URL where it is given: its form, and (where the runtime can) where its host resolves. */
async function urlProblem(services: Services, url: string): Promise<string | null> {
  const allowPrivate = services.config.allowPrivateWebhookTargets === true;
  return webhookUrlProblem(url, { allowPrivate }) ?? resolvedTargetProblem(new URL(url), services.hostResolver, { allowPrivate });
}

/**
 * POST /v1/webhooks: subscribes a URL to event kinds. Answers the subscription with its signing
 * secret, which is shown this once and kept only sealed. One subscription per endpoint in a company:
 * the URL is stored in its normalised spelling (`webhookEndpoint`), and any spelling of a subscribed
 * endpoint (`endpointKey`) gets `webhook_exists`, so that no event is ever delivered twice to one
 * receiver. At most SUBSCRIPTIONS_PER_COMPANY live ones: each multiplies what every event costs.
 */
export async function subscribe(
  ctx: CompanyContext,
  input: { url: string; events: EventKind[]; description?: string | null | undefined },
): Promise<Subscription & { secret: string }> {
  const { services, companyId } = ctx;
  const problem = await urlProblem(services, input.url);
  if (problem) throw validationFailed([{ path: 'url', message: problem }], 'The webhook URL cannot be used.');
  const url = webhookEndpoint(input.url);
  const endpoint = endpointKey(url);
  const { db } = services.database;
  refuseTaken(await liveEndpoints(services, companyId), url, endpoint);

  const id = crypto.randomUUID();
  const secret = newWebhookSecret();
  const sealed = await sealSecret(await secretKeysOf(services.config), id, secret);
  const values = {
    id,
    companyId,
    url,
    endpoint,
    events: [...new Set(input.events)],
    description: input.description ?? null,
    secretCiphertext: sealed.ciphertext,
    secretKeyId: sealed.keyId,
    createdAt: ctx.now,
  };
  const live = sql`(select count(*) from ${webhookSubscriptions} where ${webhookSubscriptions.companyId} = ${companyId} and ${webhookSubscriptions.deletedAt} is null)`;
  // Counted under the company's lock, so that creates at once at the bound give one; a twin of the
  // same endpoint, in any spelling, is kept out by the unique index on its key.
  await services.database.atomic((q) => [
    lockCompanyWebhooks(q, companyId),
    insertWhen(q, webhookSubscriptions, values, sql`${live} < ${SUBSCRIPTIONS_PER_COMPANY}`),
  ]);
  const [row] = await db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).limit(1);
  if (row) return { ...toSubscription(row), secret };
  const now = await liveEndpoints(services, companyId);
  refuseTaken(now, url, endpoint);
  // Not a twin, so the count refused it; were it neither, the next try settles it.
  throw limitReached(now.length);
}

type LiveEndpoint = { id: string; url: string; endpoint: string | null };

/** The company's live subscriptions, as few as SUBSCRIPTIONS_PER_COMPANY (a company over it from before keeps its own). */
const liveEndpoints = (services: Services, companyId: string): Promise<LiveEndpoint[]> =>
  services.database.db
    .select({ id: webhookSubscriptions.id, url: webhookSubscriptions.url, endpoint: webhookSubscriptions.endpoint })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), isNull(webhookSubscriptions.deletedAt)));

/**
 * Refuses a subscription whose endpoint is taken, or one past the limit. Subscriptions stored before
 * endpoints were kept have none, and keep the URL spelling they were given: their key is made from
 * that URL here, so they still collide with every new spelling of their endpoint.
 */
function refuseTaken(live: LiveEndpoint[], url: string, endpoint: string): void {
  const taken = live.find((row) => (row.endpoint ?? keyOfStored(row.url)) === endpoint);
  if (taken) throw subscribedAlready(url, taken.id);
  if (live.length >= SUBSCRIPTIONS_PER_COMPANY) throw limitReached(live.length);
}

function keyOfStored(stored: string): string | null {
  try {
    return endpointKey(stored);
  } catch {
    return null;
  }
}

const limitReached = (live: number) =>
  new DomainError(
    'webhook_limit_reached',
    `A company may have ${SUBSCRIPTIONS_PER_COMPANY} webhook subscriptions; remove one before subscribing another endpoint (one subscription takes any number of event kinds).`,
    { limit: SUBSCRIPTIONS_PER_COMPANY, live },
  );

const subscribedAlready = (url: string, id: string) =>
  new DomainError(
    'webhook_exists',
    'This endpoint is already subscribed (URLs are compared in their normalised form, trailing and repeated slashes aside); change its events by removing it and subscribing again.',
    { url, webhook_id: id },
  );

/** GET /v1/webhooks: the company's live subscriptions, newest first, never with their secrets. */
export async function listSubscriptions({ services, companyId }: CompanyReadContext, { page, perPage }: PageRequest): Promise<Page<Subscription>> {
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
export async function unsubscribe({ services, companyId, now }: CompanyContext, { id }: { id: string }): Promise<void> {
  if (!isUuid(id)) throw webhookNotFound(id);
  const [removed] = await services.database.db
    .update(webhookSubscriptions)
    .set({ deletedAt: now })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId), sql`${webhookSubscriptions.deletedAt} is null`))
    .returning({ id: webhookSubscriptions.id });
  if (!removed) throw webhookNotFound(id);
}
