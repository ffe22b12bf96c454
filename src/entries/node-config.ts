import { z } from 'zod';

const portMessage = 'must be a whole number from 1 to 65535';
/**
 * The PDF deadline stays below a queue attempt's (ATTEMPT_DEADLINE_MS, 120 s), so the PDF thread is
 * stopped before the queue gives up on the job and leaves that work running.
 */
const MAX_PDF_DEADLINE_SECONDS = 100;
const deadlineMessage = `must be a whole number of seconds from 1 to ${MAX_PDF_DEADLINE_SECONDS}`;

/** The embedded server's environment (docs/operations.md, "Configuration"), validated once at start. */
const NodeEnv = z.object({
  PORT: z.coerce.number({ error: portMessage }).int({ error: portMessage }).min(1, { error: portMessage }).max(65535, { error: portMessage }).default(8787),
  DATA_DIR: z.string().min(1).default('.data'),
  SEED_FILE: z.string().min(1).optional(),
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  TOKEN_SECRET: z.string().min(32, 'TOKEN_SECRET must be at least 32 characters').optional(),
  BASE_URL: z.url().optional(),
  /** An RFC 3161 time-stamping authority; with it, finished PDFs are sealed PAdES B-T. */
  TSA_URL: z.url({ protocol: /^https?$/, error: 'TSA_URL must be an http(s) URL' }).optional(),
  /** How long one finished PDF may take before its job fails and the PDF thread is restarted. */
  PDF_DEADLINE_SECONDS: z.coerce
    .number({ error: deadlineMessage })
    .int({ error: deadlineMessage })
    .min(1, { error: deadlineMessage })
    .max(MAX_PDF_DEADLINE_SECONDS, { error: deadlineMessage })
    .default(60),
  /** One JSON line per request on stdout (docs/api-guide.md, "Request ids and the request log"). */
  LOG_REQUESTS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
});

export type NodeConfig = z.infer<typeof NodeEnv> & { BASE_URL: string };

export function readNodeConfig(env: Record<string, string | undefined>): NodeConfig {
  const parsed = NodeEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return { ...parsed.data, BASE_URL: (parsed.data.BASE_URL ?? `http://127.0.0.1:${parsed.data.PORT}`).replace(/\/$/, '') };
}
