/**
 * The Worker's environment (Wrangler vars and secrets), checked once when the Worker starts: a
 * missing or malformed variable stops it with one message naming the variable, never its value
 * (some are secrets). Written without zod on purpose: this runs in the Worker's global scope, whose
 * start-up time has a budget, and loading zod there alone would cost more than the rest together
 * (`npm run size`); the app, and zod with it, is loaded on the first request.
 */
import type { WorkerConfig } from '../adapters/production/production-config.js';
import { parseSecretKeys, type SecretKey } from '../domain/webhooks/secret-box.js';

export type { WorkerConfig };

type Env = Record<string, unknown>;

/** Reads one variable; each reader records what is wrong instead of throwing, so all are told at once. */
export class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  private present(name: string): unknown {
    return this.env[name];
  }

  text(name: string, min: number): string {
    const value = this.present(name);
    if (value === undefined) this.problems.push(`${name} is required`);
    else if (typeof value !== 'string') this.problems.push(`${name} must be a string`);
    else if (value.length < min) this.problems.push(`${name} must be at least ${min} characters`);
    else return value;
    return '';
  }

  optionalText(name: string, min: number): string | undefined {
    return this.present(name) === undefined ? undefined : this.text(name, min);
  }

  /** Only http(s): BASE_URL becomes part of every signing link and callback address. */
  url(name: string, fallback?: string): string {
    const value = this.present(name) ?? fallback;
    if (value === undefined) {
      this.problems.push(`${name} is required and must be an http(s) URL`);
      return '';
    }
    if (typeof value !== 'string' || !/^https?:\/\/[^\s/]+/.test(value) || !URL.canParse(value)) {
      this.problems.push(`${name} must be an http(s) URL`);
      return '';
    }
    return value;
  }

  optionalUrl(name: string): string | undefined {
    return this.present(name) === undefined ? undefined : this.url(name);
  }

  secretKeys(name: string): SecretKey[] {
    const text = this.text(name, 1);
    if (!text) return [];
    const keys = parseSecretKeys(text);
    if (typeof keys === 'string') {
      this.problems.push(`${name}: ${keys}`);
      return [];
    }
    return keys;
  }

  wholeNumber(name: string, fallback: number, min: number, max: number): number {
    const value = this.present(name) ?? String(fallback);
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
    if (number >= min && number <= max) return number;
    this.problems.push(`${name} must be a whole number from ${min} to ${max} (a string)`);
    return fallback;
  }

  flag(name: string, fallback: 'true' | 'false' = 'false'): 'true' | 'false' {
    const value = this.present(name) ?? fallback;
    if (value === 'true' || value === 'false') return value;
    this.problems.push(`${name} must be "true" or "false" (a string)`);
    return fallback;
  }
}

export function readWorkerConfig(env: Env): WorkerConfig {
  const { config, problems } = checkWorkerConfig(env);
  if (problems.length > 0) throw new Error(`The Worker's configuration is incomplete: ${problems.join('; ')}.`);
  return config;
}

/** The configuration, and every problem with it (none when it is complete); `npm run deploy:check` reports them. */
export function checkWorkerConfig(env: Env): { config: WorkerConfig; problems: string[] } {
  const read = new Reader(env);
  const databaseUrl = read.text('DATABASE_URL', 1);
  // The Neon client parses it (its host names the endpoint): a string URL cannot read stops the start here.
  if (databaseUrl && (!/^postgres(ql)?:\/\//.test(databaseUrl) || !URL.canParse(databaseUrl))) read.problems.push('DATABASE_URL must be a postgres:// URL');
  const config: WorkerConfig = {
    DATABASE_URL: databaseUrl,
    NEON_FETCH_ENDPOINT: read.optionalUrl('NEON_FETCH_ENDPOINT'),
    UPSTASH_REDIS_REST_URL: read.optionalUrl('UPSTASH_REDIS_REST_URL'),
    UPSTASH_REDIS_REST_TOKEN: read.optionalText('UPSTASH_REDIS_REST_TOKEN', 1),
    ALLOW_IN_PROCESS_LIMITS: read.flag('ALLOW_IN_PROCESS_LIMITS'),
    ALLOW_PRIVATE_WEBHOOK_TARGETS: read.flag('ALLOW_PRIVATE_WEBHOOK_TARGETS'),
    QSTASH_URL: read.url('QSTASH_URL', 'https://qstash.upstash.io'),
    QSTASH_TOKEN: read.text('QSTASH_TOKEN', 1),
    QSTASH_CURRENT_SIGNING_KEY: read.text('QSTASH_CURRENT_SIGNING_KEY', 1),
    QSTASH_NEXT_SIGNING_KEY: read.text('QSTASH_NEXT_SIGNING_KEY', 1),
    TOKEN_SECRET: read.text('TOKEN_SECRET', 32),
    ADMIN_TOKEN: read.optionalText('ADMIN_TOKEN', 16),
    BASE_URL: read.url('BASE_URL').replace(/\/$/, ''),
    EMAIL_API_URL: read.url('EMAIL_API_URL', 'https://api.resend.com/emails'),
    EMAIL_API_KEY: read.text('EMAIL_API_KEY', 1),
    EMAIL_FROM: read.text('EMAIL_FROM', 3),
    QUEUE_MAX_DELAY_DAYS: read.wholeNumber('QUEUE_MAX_DELAY_DAYS', 7, 1, 365),
    WEBHOOK_SECRET_KEYS: read.secretKeys('WEBHOOK_SECRET_KEYS'),
    LOG_REQUESTS: read.flag('LOG_REQUESTS', 'true'),
    REDIS_TIMEOUT_MS: read.wholeNumber('REDIS_TIMEOUT_MS', 1000, 100, 10_000),
    TWILIO_ACCOUNT_SID: read.optionalText('TWILIO_ACCOUNT_SID', 1),
    TWILIO_AUTH_TOKEN: read.optionalText('TWILIO_AUTH_TOKEN', 1),
    TWILIO_FROM: read.optionalText('TWILIO_FROM', 1),
    TWILIO_API_URL: read.optionalUrl('TWILIO_API_URL'),
  };
  const twilioSettings = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM].filter((value) => value !== undefined).length;
  if (twilioSettings !== 0 && twilioSettings !== 3) read.problems.push('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together');
  if (config.TWILIO_ACCOUNT_SID && !/^AC[0-9a-fA-F]{32}$/.test(config.TWILIO_ACCOUNT_SID))
    read.problems.push('TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal digits');
  if (config.TWILIO_FROM && !/^(\+[1-9]\d{7,14}|MG[0-9a-fA-F]{32})$/.test(config.TWILIO_FROM)) {
    read.problems.push('TWILIO_FROM must be a number in E.164 (+ and 8 to 15 digits) or a Messaging Service SID (MG…)');
  }
  const redisSettings = [env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN].filter((value) => value !== undefined).length;
  if (redisSettings === 1) read.problems.push('UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN go together');
  else if (redisSettings === 0 && config.ALLOW_IN_PROCESS_LIMITS !== 'true') {
    read.problems.push('UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are required');
  }
  return { config, problems: read.problems };
}
