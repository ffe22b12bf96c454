import { and, count, eq, gte, lt } from 'drizzle-orm';
import type { Database } from '../../data/database.js';
import { envelopes } from '../../data/schema.js';
import { type Clock, systemClock } from '../../ports/clock.js';
import { dispatchMessage } from '../../queue/consumers.js';
import type { AppConfig, Services } from '../../services.js';
import { DevMailbox } from './dev-mailbox.js';
import { InProcessQueue } from './in-process-queue.js';
import { MemoryQuotaCounter } from './memory-quota-counter.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';

export type EmbeddedServices = Services & { mailbox: DevMailbox; inProcessQueue: InProcessQueue };

/** The in-process stand-ins of every outside service, over a given database. */
export function embeddedServices(options: {
  database: Database;
  config: AppConfig;
  clock?: Clock;
  clientIp?: Services['clientIp'];
}): EmbeddedServices {
  const clock = options.clock ?? systemClock;
  const mailbox = new DevMailbox();
  const queue = new InProcessQueue();
  const services: EmbeddedServices = {
    database: options.database,
    rateLimiter: new MemoryRateLimiter(clock),
    quota: new MemoryQuotaCounter((companyId, period) => sentInPeriod(options.database, companyId, period)),
    queue,
    inProcessQueue: queue,
    mailer: mailbox,
    mailbox,
    clock,
    config: options.config,
    clientIp: options.clientIp ?? (() => 'unknown'),
  };
  queue.consume((message) => dispatchMessage(services, message));
  return services;
}

/** Envelopes the database records for a company in a `YYYY-MM` period: the quota already used. */
async function sentInPeriod(database: Database, companyId: string, period: string): Promise<number> {
  const start = new Date(`${period}-01T00:00:00.000Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const [row] = await database.db
    .select({ sent: count() })
    .from(envelopes)
    .where(and(eq(envelopes.companyId, companyId), gte(envelopes.createdAt, start), lt(envelopes.createdAt, end)));
  return row?.sent ?? 0;
}
