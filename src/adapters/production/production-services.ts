import { systemClock } from '../../ports/clock.js';
import type { DocumentStore } from '../../ports/document-store.js';
import type { PdfMaker } from '../../ports/pdf-maker.js';
import type { Services } from '../../services.js';
import { sendsInPeriod } from '../../domain/quota/sends-in-period.js';
import { HoppingQueue } from '../../queue/timer-hops.js';
import { MemoryRateLimiter } from '../embedded/memory-rate-limiter.js';
import { MemorySendLimits } from '../embedded/memory-send-limits.js';
import { EmailApiMailer } from './email-api-mailer.js';
import { TwilioSms } from './twilio-sms.js';
import type { WorkerConfig } from './production-config.js';
import { openNeonHttpDatabase } from './neon-http-database.js';
import { QStashQueue } from './qstash-queue.js';
import { FailOpenRateLimiter } from './fail-open-rate-limiter.js';
import { UpstashRateLimiter } from './upstash-rate-limiter.js';
import { openUpstashRedis } from './upstash-redis.js';
import { UpstashSendLimits } from './upstash-send-limits.js';

/**
 * The deployed service's adapters: Neon over HTTP, Upstash Redis, QStash for the queue, and the
 * e-mail API called directly (so no e-mail, with its signing link, or API key rests at QStash).
 * The PDF work is the PDF Worker's, behind a service binding (src/entries/pdf-worker.ts); the
 * documents are in R2, through the `DOCUMENTS` binding both Workers have.
 */
export function productionServices(config: WorkerConfig, pdf: PdfMaker, documents: DocumentStore): Services {
  const redis =
    config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN
      ? openUpstashRedis(config.UPSTASH_REDIS_REST_URL, config.UPSTASH_REDIS_REST_TOKEN, config.REDIS_TIMEOUT_MS)
      : undefined;
  const database = openNeonHttpDatabase(config.DATABASE_URL, { fetchEndpoint: config.NEON_FETCH_ENDPOINT });
  const baseline = (companyId: string, period: string) => sendsInPeriod(database.db, companyId, period);
  const maxQueueDelayMs = config.QUEUE_MAX_DELAY_DAYS * 24 * 3600 * 1000;
  return {
    database,
    rateLimiter: redis ? new FailOpenRateLimiter(new UpstashRateLimiter(redis), config.REDIS_TIMEOUT_MS) : new MemoryRateLimiter(systemClock),
    sendLimits: redis ? new UpstashSendLimits(redis, baseline, config.REDIS_TIMEOUT_MS) : new MemorySendLimits(systemClock, baseline),
    queue: new HoppingQueue(new QStashQueue({ baseUrl: config.QSTASH_URL, token: config.QSTASH_TOKEN }, config.BASE_URL), systemClock, maxQueueDelayMs),
    mailer: new EmailApiMailer({ url: config.EMAIL_API_URL, apiKey: config.EMAIL_API_KEY, from: config.EMAIL_FROM }),
    // Without Twilio's secrets there is no text-message sender, and sends with `sms_code` roles are refused.
    ...(config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM
      ? {
          sms: new TwilioSms({
            accountSid: config.TWILIO_ACCOUNT_SID,
            authToken: config.TWILIO_AUTH_TOKEN,
            from: config.TWILIO_FROM,
            apiUrl: config.TWILIO_API_URL,
          }),
        }
      : {}),
    pdf,
    documents,
    clock: systemClock,
    config: {
      tokenSecret: new TextEncoder().encode(config.TOKEN_SECRET),
      adminToken: config.ADMIN_TOKEN,
      baseUrl: config.BASE_URL,
      keyEnvironment: 'live',
      allowPrivateWebhookTargets: config.ALLOW_PRIVATE_WEBHOOK_TARGETS === 'true',
      maxQueueDelayMs,
      webhookSecretKeys: config.WEBHOOK_SECRET_KEYS,
    },
    clientIp: (request) => request.headers.get('cf-connecting-ip') ?? 'unknown',
  };
}
