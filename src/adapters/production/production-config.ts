/**
 * What the deployed service's adapters are built from: the Worker's environment once checked
 * (src/entries/worker-config.ts reads and checks it).
 */
import type { SecretKey } from '../../domain/webhooks/secret-box.js';

export type WorkerConfig = {
  DATABASE_URL: string;
  /** Development only: where the Neon driver sends its SQL-over-HTTP requests. */
  NEON_FETCH_ENDPOINT?: string;
  UPSTASH_REDIS_REST_URL?: string;
  UPSTASH_REDIS_REST_TOKEN?: string;
  /** Development only: rate limits and quota in the isolate's memory when no Redis is configured. */
  ALLOW_IN_PROCESS_LIMITS: 'true' | 'false';
  /** Development only: webhooks may go to loopback and private addresses. */
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' | 'false';
  QSTASH_URL: string;
  QSTASH_TOKEN: string;
  QSTASH_CURRENT_SIGNING_KEY: string;
  QSTASH_NEXT_SIGNING_KEY: string;
  TOKEN_SECRET: string;
  ADMIN_TOKEN?: string;
  BASE_URL: string;
  EMAIL_API_URL: string;
  EMAIL_API_KEY: string;
  EMAIL_FROM: string;
  /** The longest delay QStash takes for one message on the plan in use (7 on the free plan). */
  QUEUE_MAX_DELAY_DAYS: number;
  /** Keys sealing webhook signing secrets at rest: `id:base64(32 bytes)`, comma-separated, the first sealing. */
  WEBHOOK_SECRET_KEYS: SecretKey[];
  /** One JSON line per request for Workers Logs; on unless set to "false". */
  LOG_REQUESTS: 'true' | 'false';
  /**
   * How long a request waits for Redis (limits, a send's admission) before it answers without it:
   * 1000 ms deployed. `npm run dev` gives 5000: its Redis sits behind a stand-in in one busy Node
   * process, and a loaded development machine must not turn sends into 503s.
   */
  REDIS_TIMEOUT_MS: number;
  /**
   * Twilio, for the codes of `sms_code` roles: all three or none. Without them, a send with such a
   * role is refused (422), since its signer could never get a code.
   */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  /** The sending number (E.164) or a Messaging Service SID (`MG…`). */
  TWILIO_FROM?: string;
  /** Development only: where Twilio's API is (the local stand-in). */
  TWILIO_API_URL?: string;
};
