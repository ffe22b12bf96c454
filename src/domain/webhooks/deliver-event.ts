import { and, count, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../data/errors.js';
import { type DeliveryOrigin, webhookDeliveries, type webhookEvents, webhookSubscriptions } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { logError } from '../../lib/log-error.js';
import type { Services } from '../../services.js';
import { type SignedBody, signedDeliveryBody } from './delivery-body.js';
import { openSecret, secretKeysOf } from './secret-box.js';
import { DocumentChanged } from './streamed-body.js';
import { resolvedTargetProblem, webhookUrlProblem } from './webhook-target.js';

type Event = typeof webhookEvents.$inferSelect;
type Subscription = typeof webhookSubscriptions.$inferSelect;

/**
 * Attempts an event gets, the first included. The queue retries a failed attempt with backoff
 * (QStash: 5 retries, about 12 s, 2.5 min, 30 min, 6 h and 24 h apart; the embedded queue the
 * same count, seconds apart), so the last attempt is the sixth.
 */
export const DELIVERY_ATTEMPTS = 6;
/** A subscription whose deliveries have all failed for this long, through a whole schedule, is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3600 * 1000;
const TIMEOUT_MS = 10_000;
const timeoutOf = (services: Services) => services.config.webhookTimeoutMs ?? TIMEOUT_MS;

export type ErrorType = 'timeout' | 'network' | 'refused_target' | 'redirect' | 'http_status' | 'interrupted';

/**
 * An attempt with no result after this long never finished: the process running it stopped (a
 * crash, a deploy, a Worker evicted). An attempt takes at most the webhook timeout and its
 * recording; the queue gives a job 120 s before it retries it (src/queue/attempts.ts).
 */
export const INTERRUPTED_AFTER_MS = 3 * 60 * 1000;
/** How long after its last failed attempt a delivery may still be retried: the longest gap of the schedule (24 h) and then some. */
export const RETRIED_FOR_AT_MOST_MS = 36 * 3600 * 1000;

/** Whether an attempt with no result may still be running (else it was interrupted). */
export const attemptStillOpen = (attempt: { statusCode: number | null; errorType: string | null; createdAt: Date }, now: Date) =>
  attempt.statusCode === null && attempt.errorType === null && attempt.createdAt.getTime() > now.getTime() - INTERRUPTED_AFTER_MS;

/** What the deliveries list shows of an attempt without a result that is too old to be running. */
export const interruptedAttempt = { errorType: 'interrupted' as const, error: 'The attempt did not finish: the service stopped while it ran.' };

/** One delivery of an event to a subscription: the event's own, or one a replay or redelivery started. */
export type Delivery = { id: string; origin: DeliveryOrigin };

/** The id of an event's own delivery to a subscription: fixed by the pair, so every attempt of it finds it. */
export const ownDeliveryId = (eventId: string, subscriptionId: string) => uuidFromName(`${eventId}.${subscriptionId}`);

export type AttemptResult = {
  attempt: number;
  delivered: boolean;
  statusCode: number | null;
  errorType: ErrorType | null;
  error: string | null;
  durationMs: number | null;
  /** The subscriber answered 410 Gone: the subscription is now disabled. */
  gone: boolean;
};

/**
 * One signed attempt to deliver an event to a subscription, recorded whatever happens. The
 * attempt's number is taken before sending, by a row the database keeps unique, so attempts
 * running at once never share one. The payload is built here, not in the queue: a finished PDF
 * travels only from us to the subscriber.
 */
export async function attemptDelivery(services: Services, event: Event, subscription: Subscription, made: Delivery): Promise<AttemptResult> {
  const { db } = services.database;
  const attempt = await numberAttempt(services, event, subscription, made);
  const record = async (result: Omit<AttemptResult, 'attempt' | 'gone'>) => {
    await db
      .update(webhookDeliveries)
      .set({ statusCode: result.statusCode, errorType: result.errorType, error: result.error, durationMs: result.durationMs })
      .where(and(eq(webhookDeliveries.deliveryId, made.id), eq(webhookDeliveries.attempt, attempt)));
    return { ...result, attempt, gone: false };
  };

  // Checked again at each attempt: what was allowed at subscribe time may resolve elsewhere now.
  const allowPrivate = services.config.allowPrivateWebhookTargets === true;
  const refusal =
    webhookUrlProblem(subscription.url, { allowPrivate }) ?? (await resolvedTargetProblem(new URL(subscription.url), services.hostResolver, { allowPrivate }));
  if (refusal) return record({ delivered: false, statusCode: null, errorType: 'refused_target', error: refusal, durationMs: null });

  const secrets = await signingSecrets(services, subscription);
  const timestamp = Math.floor(services.clock.now().getTime() / 1000);
  const started = Date.now();
  let response: Response;
  let signed: SignedBody | undefined;
  try {
    // During a rotation's overlap, one signature per secret, space-separated (Standard Webhooks).
    signed = await signedDeliveryBody(services, event, secrets, timestamp);
    response = await fetch(subscription.url, {
      method: 'POST',
      // A redirect could lead anywhere, a private address included: it is recorded, never followed.
      redirect: signed.request.redirect ?? 'manual',
      signal: AbortSignal.timeout(timeoutOf(services)),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'esign-webhooks/1',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signed.signature,
        ...signed.request.headers,
      },
      body: signed.request.body,
      ...(signed.request.duplex ? { duplex: signed.request.duplex } : {}),
    } as RequestInit);
    await response.body?.cancel();
  } catch (err) {
    if (!signed && !(err instanceof DocumentChanged)) throw err;
    if (signed?.request.redirect === 'error' && refusedRedirect(err)) {
      return record({
        delivered: false,
        statusCode: null,
        errorType: 'redirect',
        error: 'Answered with a redirect; redirects are not followed.',
        durationMs: Date.now() - started,
      });
    }
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return record({
      delivered: false,
      statusCode: null,
      errorType: timedOut ? 'timeout' : 'network',
      error: timedOut ? `No answer within ${timeoutOf(services) / 1000} s.` : `The connection failed${causeOf(err)}.`,
      durationMs: Date.now() - started,
    });
  }
  const durationMs = Date.now() - started;
  const status = response.status;
  if (status >= 200 && status < 300) {
    // Delivered: a failure to record it must not make the queue deliver it again.
    return record({ delivered: true, statusCode: status, errorType: null, error: null, durationMs }).catch((err: unknown) => {
      logError('a delivered webhook could not be recorded', err);
      return { attempt, delivered: true, statusCode: status, errorType: null, error: null, durationMs, gone: false };
    });
  }
  const result = await record({
    delivered: false,
    statusCode: status,
    errorType: status >= 300 && status < 400 ? 'redirect' : 'http_status',
    error: status >= 300 && status < 400 ? `Answered ${status}; redirects are not followed.` : `Answered ${status}.`,
    durationMs,
  });
  if (status === 410) {
    await disable(services, subscription.id, 'The endpoint answered 410 Gone.');
    return { ...result, gone: true };
  }
  return result;
}

/** The secrets a delivery is signed with now: the current one, and the one a rotation replaced until its 24 hours end. */
async function signingSecrets(services: Services, subscription: Subscription): Promise<string[]> {
  const keys = await secretKeysOf(services.config);
  const current = await openSecret(keys, subscription.id, { ciphertext: subscription.secretCiphertext, keyId: subscription.secretKeyId });
  const { previousSecretCiphertext: ciphertext, previousSecretKeyId: keyId, previousSecretExpiresAt: expiresAt } = subscription;
  if (!ciphertext || !keyId || !expiresAt || expiresAt <= services.clock.now()) return [current];
  return [current, await openSecret(keys, subscription.id, { ciphertext, keyId })];
}

/** Takes the next attempt number of the delivery with a row of its own; a twin that took the same one makes us take the next. */
async function numberAttempt(services: Services, event: Event, subscription: Subscription, delivery: Delivery): Promise<number> {
  const { db } = services.database;
  const mine = eq(webhookDeliveries.deliveryId, delivery.id);
  for (let tries = 0; ; tries++) {
    const [made] = await db.select({ attempts: count() }).from(webhookDeliveries).where(mine);
    const attempt = (made?.attempts ?? 0) + 1;
    try {
      await db.insert(webhookDeliveries).values({
        companyId: event.companyId,
        deliveryId: delivery.id,
        origin: delivery.origin,
        eventId: event.id,
        subscriptionId: subscription.id,
        attempt,
        createdAt: services.clock.now(),
      });
      // An earlier attempt still without a result was cut short with its process (the queue retries
      // a job only when its attempt failed or died): it is closed, so the list shows no attempt in
      // flight beside its retries. An attempt only slow, not dead, records its result over this.
      if (attempt > 1) {
        await db
          .update(webhookDeliveries)
          .set(interruptedAttempt)
          .where(and(mine, lt(webhookDeliveries.attempt, attempt), isNull(webhookDeliveries.statusCode), isNull(webhookDeliveries.errorType)));
      }
      return attempt;
    } catch (err) {
      if (!isUniqueViolation(err) || tries >= 20) throw err;
    }
  }
}

/** A fetch told to refuse redirects met one (Node: "unexpected redirect"; workerd names the redirect too). */
const refusedRedirect = (err: unknown) => {
  const messages = [(err as Error)?.message, (err as { cause?: Error })?.cause?.message];
  return messages.some((message) => typeof message === 'string' && /redirect/i.test(message));
};

const causeOf = (err: unknown) => {
  const cause = (err as { cause?: { code?: unknown } })?.cause;
  // The finished PDF read for the body was not the one its row describes: the body was cut short.
  if (err instanceof DocumentChanged || cause instanceof DocumentChanged) return ': the finished PDF changed while it was read';
  const code = cause?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : '';
};

async function disable(services: Services, subscriptionId: string, reason: string): Promise<void> {
  await services.database.db
    .update(webhookSubscriptions)
    .set({ disabledAt: services.clock.now(), disabledReason: reason })
    .where(and(eq(webhookSubscriptions.id, subscriptionId), isNull(webhookSubscriptions.disabledAt)));
}

/**
 * After an event's last attempt failed: a subscription that has delivered nothing for three days
 * (and is at least that old) is disabled, so a dead endpoint stops costing attempts.
 */
export async function disableIfDead(services: Services, subscription: Subscription): Promise<void> {
  const since = new Date(services.clock.now().getTime() - DISABLE_AFTER_FAILING_MS);
  if (subscription.createdAt > since) return;
  const [recent] = await services.database.db
    .select({ delivered: count() })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.subscriptionId, subscription.id),
        gte(webhookDeliveries.createdAt, since),
        sql`${webhookDeliveries.statusCode} between 200 and 299`,
      ),
    );
  if ((recent?.delivered ?? 0) === 0) await disable(services, subscription.id, 'Every delivery failed for 3 days.');
}
