/**
 * Everything the app needs from the outside, chosen once at an entry point (Node or the Worker)
 * and handed to `createApp`. The app never reads the environment itself.
 */
import type { Database } from './data/database.js';
import type { SecretKey } from './domain/webhooks/secret-box.js';
import type { HostResolver } from './domain/webhooks/webhook-target.js';
import type { SealSource } from './pdf/seal-pem.js';
import type { Clock } from './ports/clock.js';
import type { DocumentStore } from './ports/document-store.js';
import type { Mailer } from './ports/mailer.js';
import type { PdfMaker } from './ports/pdf-maker.js';
import type { Queue } from './ports/queue.js';
import type { RateLimiter } from './ports/rate-limiter.js';
import type { RequestLog } from './ports/request-log.js';
import type { SendLimits } from './ports/send-limits.js';
import type { SmsSender } from './ports/sms.js';

export type AppConfig = {
  /** HMAC key of access tokens (HS256). */
  tokenSecret: Uint8Array;
  /** Bearer token of the admin API; when absent the admin API answers 404. */
  adminToken?: string;
  /** Public base address, used in signing links. */
  baseUrl: string;
  /** `test` keys for the embedded and test stacks, `live` for a deployed service. */
  keyEnvironment: 'live' | 'test';
  /** Development and tests only: lets webhooks reach loopback and private addresses. */
  allowPrivateWebhookTargets?: boolean;
  /** The longest delay the queue takes for one message; longer timers go in hops (default 7 days). */
  maxQueueDelayMs?: number;
  /**
   * Keys that seal webhook signing secrets at rest, the first one sealing. A deployed service is
   * given them (WEBHOOK_SECRET_KEYS); without, one is derived from the token secret.
   */
  webhookSecretKeys?: SecretKey[];
  /** How long a webhook delivery waits for the subscriber's answer (default 10 s). */
  webhookTimeoutMs?: number;
  /**
   * The key and certificate that seal every finished PDF on Node (the embedded server makes a
   * self-signed one); a deployed service's seal is the PDF Worker's. Without it, finished PDFs are
   * left unsealed: only test stacks do that.
   */
  seal?: SealSource;
  /**
   * An RFC 3161 time-stamping authority (TSA_URL): with it, seals are PAdES B-T, time-stamped by
   * it; without, B-B, whose time is the service's own claim.
   */
  timestampUrl?: string;
};

export type Services = {
  database: Database;
  rateLimiter: RateLimiter;
  sendLimits: SendLimits;
  queue: Queue;
  mailer: Mailer;
  /** Text messages (verification codes of `sms_code` roles); absent when none is configured, and such sends are refused. */
  sms?: SmsSender;
  /** Reads uploaded PDFs and makes finished ones (in the process on Node, the PDF Worker on Workers). */
  pdf: PdfMaker;
  /** Where templates' and finished PDFs live, streamed: R2 on Workers, files under DATA_DIR on `npm start`, memory in tests. */
  documents: DocumentStore;
  clock: Clock;
  config: AppConfig;
  /**
   * The caller's address, as the runtime knows it (socket on Node, `CF-Connecting-IP` on Workers):
   * from the request, or from the bindings the runtime handed over with it.
   */
  clientIp(request: Request, bindings: unknown): string;
  /** Resolves webhook hosts to check their addresses; absent where the runtime cannot (Workers). */
  hostResolver?: HostResolver;
  /** Where each request's log line goes (LOG_REQUESTS); absent, no line is written (the test stacks). */
  requestLog?: RequestLog;
};
