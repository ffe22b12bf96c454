import { and, isNotNull, lte } from 'drizzle-orm';
import { outboxMessages } from '../data/schema.js';
import { purgeExpiredRecords } from '../domain/envelopes/idempotency.js';
import { purgeSpentCodes } from '../domain/signing/code-retention.js';
import { purgeExpiredWebhookEvents } from '../domain/webhooks/event-retention.js';
import { logError } from '../lib/log-error.js';
import type { Services } from '../services.js';
import { sweepOutbox } from './outbox.js';

/** Relayed outbox rows are kept a week, for whoever investigates a delivery, then removed. */
const KEEP_RELAYED_MS = 7 * 24 * 3600 * 1000;

/**
 * The periodic work that keeps the promises of committed changes: relay what a request that died
 * left in the outbox, and remove what answers for nothing any more (expired Idempotency-Key
 * records, long-relayed outbox rows, webhook events past their 30 days, verification codes past their
 * two days). A Cron Trigger runs it every minute in production, a timer
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
    db.delete(outboxMessages).where(and(isNotNull(outboxMessages.relayedAt), lte(outboxMessages.relayedAt, new Date(now.getTime() - KEEP_RELAYED_MS)))),
  ]);
  return { relayed };
}

/** Runs housekeeping every `intervalMs` in this process (the embedded server); answers a stopper. */
export function runHousekeepingEvery(services: Services, intervalMs: number): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
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
