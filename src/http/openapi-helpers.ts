import { z } from '@hono/zod-openapi';
import type { ErrorCode } from '../errors.js';
import { errorStatus } from './error-status.js';

/** The one error body (docs/api-reference.md, section 7), as documented in the OpenAPI document. */
export function errorBodySchema(codes: readonly ErrorCode[]) {
  return z
    .object({
      error: z.object({
        code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
        message: z.string(),
        details: z.record(z.string(), z.unknown()),
      }),
    })
    .openapi({ description: 'Clients branch on `error.code`, never on the message.' });
}

const rateLimitHeaders = {
  'RateLimit-Limit': { schema: { type: 'integer' as const }, description: 'Requests allowed in the window.' },
  'RateLimit-Remaining': { schema: { type: 'integer' as const }, description: 'Requests left in the window.' },
  'RateLimit-Reset': { schema: { type: 'integer' as const }, description: 'Seconds until the window resets.' },
};

/**
 * The error answers of one operation, grouped by status from the one code→status table, so the
 * document cannot promise a status the service does not send.
 *
 * Their schemas only document: errors are built by the error handler, never parsed. So each is
 * made when the OpenAPI document first reads it, not when the endpoint's module loads, which is
 * an isolate's first request to it (a dozen zod schemas an endpoint, on the Worker's cold start).
 */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => {
      let content: { 'application/json': { schema: ReturnType<typeof errorBodySchema> } } | undefined;
      return [
        status,
        {
          description: group.map((code) => `\`${code}\``).join(', '),
          headers: status === 429 ? { ...rateLimitHeaders, 'Retry-After': { schema: { type: 'integer' as const } } } : undefined,
          get content() {
            return (content ??= { 'application/json': { schema: errorBodySchema(group) } });
          },
        },
      ];
    }),
  );
}

/** Errors every authenticated `/v1` operation can answer with. */
export const authErrors = ['unauthorized', 'insufficient_scope', 'permission_denied', 'rate_limited'] as const;

export const bearerSecurity = [{ bearerAuth: [] }];

export function jsonContent<T extends z.ZodType>(schema: T, description: string, withRateLimitHeaders = true) {
  return {
    description,
    headers: withRateLimitHeaders ? rateLimitHeaders : undefined,
    content: { 'application/json': { schema } },
  };
}

/** A JSON request body that must be present and be JSON. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } };
}
