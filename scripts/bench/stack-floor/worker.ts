/**
 * The stack floor (`npm run bench`, part 3): the least a Worker made of the API Worker's packages
 * does to answer one authenticated read, as their own documentation would have it written. Its
 * cold start is what those packages cost an isolate before any code of ours runs, so the API
 * Worker's cold start is judged against it: what the ratio shows above 1 is ours to work on.
 *
 * One route, `GET /v1/api-key`: the bearer token verified with jose (the API's own tokens, so both
 * Workers answer the same request), then, together as the API does them, a sliding-window rate
 * limit by @upstash/ratelimit over @upstash/redis and one row read by drizzle over `neon()`; the
 * answer goes out through a @hono/zod-openapi route with zod schemas. Never deployed.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { neon, neonConfig } from '@neondatabase/serverless';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis/cloudflare';
import { and, eq, isNull } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/neon-http';
import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { jwtVerify } from 'jose';

type Env = {
  DATABASE_URL: string;
  /** The Neon stand-in's `/sql`; unset against Neon itself. */
  NEON_FETCH_ENDPOINT?: string;
  UPSTASH_REDIS_REST_URL: string;
  UPSTASH_REDIS_REST_TOKEN: string;
  TOKEN_SECRET: string;
};

// The columns of the API's `api_keys` this read needs; the bench's database is the API's.
const apiKeys = pgTable('api_keys', {
  id: text('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  name: text('name'),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  version: integer('version').notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

// Made on the first request, once per isolate: the bindings arrive with it.
let clients: ReturnType<typeof connect> | undefined;
function connect(env: Env) {
  if (env.NEON_FETCH_ENDPOINT) neonConfig.fetchEndpoint = env.NEON_FETCH_ENDPOINT;
  return {
    db: drizzle({ client: neon(env.DATABASE_URL) }),
    ratelimit: new Ratelimit({
      redis: new Redis({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN }),
      limiter: Ratelimit.slidingWindow(1000, '60 s'),
      prefix: 'stack-floor',
    }),
    secret: new TextEncoder().encode(env.TOKEN_SECRET),
  };
}

const ApiKey = z.object({ id: z.string(), name: z.string().nullable(), scopes: z.array(z.string()), version: z.number().int() }).openapi('ApiKey');
const Failure = z.object({ error: z.object({ code: z.string(), message: z.string() }) }).openapi('Error');
const failure = (description: string) => ({ description, content: { 'application/json': { schema: Failure } } });
const fail = (code: string, message: string) => ({ error: { code, message } });

const readApiKey = createRoute({
  method: 'get',
  path: '/v1/api-key',
  request: { headers: z.object({ authorization: z.string().regex(/^Bearer [A-Za-z0-9._~+/=-]+$/) }) },
  responses: {
    200: { description: 'The key the token was issued from', content: { 'application/json': { schema: ApiKey } } },
    401: failure('No valid token'),
    404: failure('The key is gone'),
    429: failure('Over the rate limit'),
  },
});

const app = new OpenAPIHono<{ Bindings: Env }>();

app.openapi(readApiKey, async (c) => {
  clients ??= connect(c.env);
  const { db, ratelimit, secret } = clients;
  const token = c.req.valid('header').authorization.slice('Bearer '.length);
  const claims = await jwtVerify(token, secret, { issuer: 'esign-api', audience: 'esign-api/v1', algorithms: ['HS256'] }).then(
    ({ payload }) => (typeof payload.sub === 'string' && typeof payload.cid === 'string' ? { keyId: payload.sub, companyId: payload.cid } : null),
    () => null,
  );
  if (!claims) return c.json(fail('unauthorized', 'The access token is malformed, expired or not ours.'), 401);
  const [limit, rows] = await Promise.all([
    ratelimit.limit(claims.keyId),
    db
      .select({ id: apiKeys.id, name: apiKeys.name, scopes: apiKeys.scopes, version: apiKeys.version })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, claims.keyId), eq(apiKeys.companyId, claims.companyId), isNull(apiKeys.revokedAt)))
      .limit(1),
  ]);
  c.executionCtx.waitUntil(limit.pending);
  if (!limit.success) return c.json(fail('rate_limited', 'Too many requests.'), 429);
  const row = rows[0];
  if (!row) return c.json(fail('not_found', 'No such key, or it was revoked.'), 404);
  return c.json(row, 200);
});

export default app;
