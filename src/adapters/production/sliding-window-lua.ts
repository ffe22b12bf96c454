/**
 * The sliding window of the request-rate limits, as Lua, shared by the rate limiter's script and
 * the send's admission: the previous fixed window's count weighted by how much of it the sliding
 * window still overlaps, plus the current window's count (MemoryRateLimiter counts the same way in
 * process). It reads KEYS[1] and KEYS[2], the current and the previous window's counters, and
 * ARGV[1] the limit, ARGV[2] the window in ms, ARGV[3] the time in epoch ms; it leaves `limit`,
 * `window` and `weighted` defined for the rest of the script.
 */
export const WEIGHTED_COUNT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local weighted = math.floor(previous * (1 - (tonumber(ARGV[3]) % window) / window) + current)`;

/** Counts one request in the current window, kept for two windows: it is the next one's previous. */
export const COUNT_REQUEST = `
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], window * 2)
weighted = weighted + 1`;

/** The keys of one identifier's current and previous windows, the order WEIGHTED_COUNT reads them. */
export function windowKeys(prefix: string, windowMs: number, now: number): [current: string, previous: string] {
  const window = Math.floor(now / windowMs);
  return [`${prefix}:${window}`, `${prefix}:${window - 1}`];
}
