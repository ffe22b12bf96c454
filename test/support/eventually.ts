/**
 * The ceiling of a wait for an event (a delivery, a stored row), for `vi.waitFor`: far above the
 * time the event takes, so that a loaded machine only slows such a test and never fails it. It is
 * no budget: the wait ends as soon as the event is seen.
 */
export const eventually = { timeout: 15_000, interval: 20 };

/**
 * How long the suites let Redis answer, in place of the service's own 1 s bound: they prove what
 * Redis decides (exact limits and quota under many parallel sends), which a loaded machine must
 * only slow. What the service does when Redis is slow is proven on its own
 * (test/integration/upstash-redis.test.ts, test/e2e/redis-stall.e2e.test.ts).
 */
export const REDIS_WAIT_MS = eventually.timeout;
