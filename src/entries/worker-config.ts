import { z } from 'zod';

/** Only http(s): BASE_URL becomes part of every signing link and callback address. */
const httpUrl = (name: string) => z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` });

const secret = (name: string, min: number) => z.string({ error: `${name} is required` }).min(min, `${name} must be at least ${min} characters`);

/**
 * The Worker's environment (Wrangler vars and secrets). Parsed once when the Worker starts; a
 * missing or malformed variable stops it with one message naming the variable.
 */
const WorkerEnv = z
  .object({
    DATABASE_URL: z.string({ error: 'DATABASE_URL is required' }).regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL'),
    /** Development only: where the Neon driver sends its SQL-over-HTTP requests. */
    NEON_FETCH_ENDPOINT: httpUrl('NEON_FETCH_ENDPOINT').optional(),
    UPSTASH_REDIS_REST_URL: httpUrl('UPSTASH_REDIS_REST_URL').optional(),
    UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
    /** Development only: rate limits and quota in the isolate's memory when no Redis is configured. */
    /** Development only: webhooks may go to loopback and private addresses. */
    ALLOW_PRIVATE_WEBHOOK_TARGETS: z.enum(['true', 'false'], { error: 'ALLOW_PRIVATE_WEBHOOK_TARGETS must be "true" or "false" (a string)' }).default('false'),
    ALLOW_IN_PROCESS_LIMITS: z.enum(['true', 'false'], { error: 'ALLOW_IN_PROCESS_LIMITS must be "true" or "false" (a string)' }).default('false'),
    QSTASH_URL: httpUrl('QSTASH_URL').default('https://qstash.upstash.io'),
    QSTASH_TOKEN: secret('QSTASH_TOKEN', 1),
    QSTASH_CURRENT_SIGNING_KEY: secret('QSTASH_CURRENT_SIGNING_KEY', 1),
    QSTASH_NEXT_SIGNING_KEY: secret('QSTASH_NEXT_SIGNING_KEY', 1),
    TOKEN_SECRET: secret('TOKEN_SECRET', 32),
    ADMIN_TOKEN: z.string({ error: 'ADMIN_TOKEN must be a string' }).min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
    BASE_URL: httpUrl('BASE_URL'),
    EMAIL_API_URL: httpUrl('EMAIL_API_URL').default('https://api.resend.com/emails'),
    EMAIL_API_KEY: secret('EMAIL_API_KEY', 1),
    EMAIL_FROM: secret('EMAIL_FROM', 3),
  })
  .superRefine((env, ctx) => {
    const redis = [env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN].filter(Boolean).length;
    if (redis === 1) {
      ctx.addIssue({ code: 'custom', path: ['UPSTASH_REDIS_REST_TOKEN'], message: 'UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN go together' });
    } else if (redis === 0 && env.ALLOW_IN_PROCESS_LIMITS !== 'true') {
      ctx.addIssue({ code: 'custom', path: ['UPSTASH_REDIS_REST_URL'], message: 'UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are required' });
    }
  });

export type WorkerConfig = z.infer<typeof WorkerEnv>;

export function readWorkerConfig(env: Record<string, unknown>): WorkerConfig {
  const parsed = WorkerEnv.safeParse(env);
  if (!parsed.success) {
    // Every message names its variable, and never echoes a value: some of them are secrets.
    const problems = parsed.error.issues
      .map((issue) => {
        const name = String(issue.path[0] ?? '');
        return name && !issue.message.includes(name) ? `${name}: ${issue.message}` : issue.message;
      })
      .join('; ');
    throw new Error(`The Worker's configuration is incomplete: ${problems}.`);
  }
  return { ...parsed.data, BASE_URL: parsed.data.BASE_URL.replace(/\/$/, '') };
}
