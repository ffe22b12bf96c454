import { Redis } from '@upstash/redis/cloudflare';

/** How long the service waits for Redis on a request's path before it answers without it. */
export const REDIS_TIMEOUT_MS = 1000;

/**
 * @upstash/redis as the limits and the quota use it. Every request it makes is aborted after
 * REDIS_TIMEOUT_MS: a Redis that stalls costs a request a second, never the client's default of
 * waiting as long as the connection lasts. A request that got no answer at all (a refused
 * connection) is tried once more; an aborted one is not. Results are taken as Redis gives them
 * (no JSON parsing of strings: an Idempotency-Key's request hash is hex that could read as a number).
 */
export function openUpstashRedis(url: string, token: string, timeoutMs = REDIS_TIMEOUT_MS): Redis {
  return new Redis({
    url,
    token,
    signal: () => AbortSignal.timeout(timeoutMs),
    retry: { retries: 1, backoff: () => 50 },
    automaticDeserialization: false,
  });
}
