import type { Database } from '../../data/database.js';
import { sendsInPeriod } from '../../domain/quota/sends-in-period.js';
import { nodeFontSource } from '../../pdf/fonts/node-font-source.js';
import { inlinePdfMaker } from '../../pdf/inline-pdf-maker.js';
import { type Clock, systemClock } from '../../ports/clock.js';
import type { DocumentStore } from '../../ports/document-store.js';
import { dispatchMessage } from '../../queue/consumers.js';
import { HoppingQueue } from '../../queue/timer-hops.js';
import type { AppConfig, Services } from '../../services.js';
import { DevMailbox } from './dev-mailbox.js';
import { DevSmsBox } from './dev-sms-box.js';
import { InProcessQueue } from './in-process-queue.js';
import { MemoryDocumentStore } from './memory-document-store.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import { MemorySendLimits } from './memory-send-limits.js';

export type EmbeddedServices = Services & { mailbox: DevMailbox; smsBox: DevSmsBox; inProcessQueue: InProcessQueue };

/** The in-process stand-ins of every outside service, over a given database. */
export function embeddedServices(options: {
  database: Database;
  config: AppConfig;
  clock?: Clock;
  clientIp?: Services['clientIp'];
  /** The queue's name in the database: servers that share one keep their messages apart. */
  queueName?: string;
  /** The PDF work; by default in this thread, reading the seal from the config at each use. */
  pdf?: Services['pdf'];
  /**
   * Where documents live; by default in memory, which is enough for a test stack. A server that
   * restarts over the same database passes a store that outlives it (the file store under DATA_DIR).
   */
  documents?: DocumentStore;
}): EmbeddedServices {
  const clock = options.clock ?? systemClock;
  const documents = options.documents ?? new MemoryDocumentStore();
  const mailbox = new DevMailbox();
  const smsBox = new DevSmsBox();
  const queue = new InProcessQueue(options.database, { ...(options.queueName ? { name: options.queueName } : {}) });
  const services: EmbeddedServices = {
    database: options.database,
    rateLimiter: new MemoryRateLimiter(clock),
    sendLimits: new MemorySendLimits(clock, (companyId, period) => sendsInPeriod(options.database.db, companyId, period)),
    queue: new HoppingQueue(queue, clock, options.config.maxQueueDelayMs),
    inProcessQueue: queue,
    mailer: mailbox,
    mailbox,
    sms: smsBox,
    smsBox,
    // Reads the seal and the authority from the config at each use (a test may change them).
    pdf: options.pdf ?? inlinePdfMaker(options.config, nodeFontSource(), documents),
    documents,
    clock,
    config: options.config,
    clientIp: options.clientIp ?? (() => 'unknown'),
  };
  queue.consume((message) => dispatchMessage(services, message));
  return services;
}
