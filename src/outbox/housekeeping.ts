import { and, isNotNull, lte } from 'drizzle-orm';
import { outboxMessages } from '../data/schema.js';
import { purgeEndedAccess } from '../domain/app-access/access-retention.js';
import { moveDocuments } from '../domain/documents/move-documents.js';
import { purgeExpiredRecords } from '../domain/envelopes/idempotency.js';
import { removeAbandonedUploads } from '../domain/templates/abandoned-uploads.js';
import { purgeSpentCodes } from '../domain/signing/code-retention.js';
import { purgeExpiredWebhookEvents } from '../domain/webhooks/event-retention.js';
import { logError } from '../lib/log-error.js';
import type { Services } from '../services.js';
import { sweepOutbox } from './outbox.js';

/**
 * Documents still in bytea moved into the store per run: a few, so that a run stays short on the
 * Workers (which cannot move them at deploy time); a read that meets one moves it at once anyway.
 */
const DOCUMENTS_MOVED_PER_RUN = 5;

/** Relayed outbox rows are kept a week, for whoever investigates a delivery, then removed. */
const KEEP_RELAYED_MS = 7 * 24 * 3600 * 1000;

/**
 * The periodic work that keeps the promises of committed changes: relay what a request that died
 * left in the outbox, and remove what answers for nothing any more (expired Idempotency-Key
 * records, long-relayed outbox rows, webhook events past their 30 days, verification codes past their
 * two days), sign-in links and sessions that can no longer sign anyone in, builder uploads no template was saved from in a day), and move a few documents still kept in Postgres into the document store. A Cron Trigger runs it every minute in production, a timer
 * in the embedded server.
 */
export async function housekeeping(services: Services): Promise<{ relayed: number }> {
  const relayed = await sweepOutbox(services);
  const now = services.clock.now();
  const { db } = services.database;
  await Promise.all([
    purgeExpiredRecords(db, now),
    purgeExpiredWebhookEvents(db, now),
    purgeSpentCodes(db, now),
    purgeEndedAccess(db, now),
    db.delete(outboxMessages).where(and(isNotNull(outboxMessages.relayedAt), lte(outboxMessages.relayedAt, new Date(now.getTime() - KEEP_RELAYED_MS)))),
    moveDocuments(services, { limit: DOCUMENTS_MOVED_PER_RUN }),
    removeAbandonedUploads(services, now),
  ]);
  return { relayed };
}

/**
 * Runs housekeeping every `intervalMs` in this process (the embedded server); answers a stopper.
 * Its first run, at the server's start, moves every document still kept in Postgres into the
 * store, a row at a time, while the server already answers (a read that meets one moves it).
 */
export function runHousekeepingEvery(services: Services, intervalMs: number): () => void {
  let running = false;
  let started = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      if (!started) {
        started = true;
        // A failure here must not hold up the relay: each later run moves a few rows again.
        await moveDocuments(services).catch((err: unknown) => logError('moving documents into the store failed; housekeeping retries a few at a time', err));
      }
      await housekeeping(services);
    } catch (err) {
      logError('housekeeping failed; it runs again shortly', err);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
