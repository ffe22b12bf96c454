import type { Redis } from '@upstash/redis/cloudflare';
import { randomBase62 } from '../../lib/crypto.js';
import { withinDeadline } from '../../lib/deadline.js';
import { type RateDecision, rateRules } from '../../ports/rate-limiter.js';
import {
  CLAIM_TTL_MS,
  type QuotaBaseline,
  quotaPeriod,
  type SendAdmission,
  type SendAttempt,
  type SendLimits,
  type SendRefusals,
  type SendRelease,
} from '../../ports/send-limits.js';
import { REDIS_TIMEOUT_MS } from './upstash-redis.js';

// The send's sliding window counts as @upstash/ratelimit's (and MemoryRateLimiter's) does: the
// previous fixed window's count weighted by how much of it the window still overlaps, plus the
// current one's; a refused request is not counted. It is part of the admission's script rather
// than a limiter of its own, because the limit, the claim and the quota are one decision.
const WEIGHTED_COUNT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local weighted = math.floor(previous * (1 - (tonumber(ARGV[3]) % window) / window) + current)`;

/** Counts a refused send in a company's refusals hash of the period (`key`), kept as long as the quota count (`ttl` seconds). */
const COUNT_REFUSAL = (key: string, reason: 'rate' | 'quota', ttl: string) => `
  redis.call('HINCRBY', ${key}, '${reason}', 1)
  redis.call('EXPIRE', ${key}, tonumber(${ttl}))`;

/** Counts one request in the current window, kept for two windows: it is the next one's previous. */
const COUNT_REQUEST = `
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], window * 2)
weighted = weighted + 1`;

// One script, so Redis decides the whole admission atomically in one round trip. The order is
// the rule: the limit first (a refused send takes nothing), then the Idempotency-Key claim (a
// twin of a send in flight takes no quota), then the quota (a send refused for it holds no claim).
// A missing quota key is not guessed: the caller rebuilds it from the database and asks again with
// that baseline, before the attempt was counted. A claim holds `hash|expiry`, its expiry on the
// caller's clock like the window. An admission leaves its release token (KEYS[5]) for as long as
// its claim would hold, holding the claim it took, so that RELEASE gives back exactly what it took.
// A refusal for the limit or the quota is counted in the company's refusals of the period (KEYS[6],
// a hash of `rate` and `quota`) by the same script: the usage page's figure costs a send nothing.
const ADMIT = `
if redis.call('EXISTS', KEYS[4]) == 0 then
  if ARGV[8] == '' then return {'rebuild', 0, '', 0} end
  redis.call('SET', KEYS[4], ARGV[8], 'EX', tonumber(ARGV[7]), 'NX')
end
${WEIGHTED_COUNT}
if weighted >= limit then
  ${COUNT_REFUSAL('KEYS[6]', 'rate', 'ARGV[7]')}
  return {'limited', weighted, '', 0}
end
${COUNT_REQUEST}
local now = tonumber(ARGV[3])
if ARGV[4] ~= '' then
  local held = redis.call('GET', KEYS[3])
  if held then
    local bar = string.find(held, '|', 1, true)
    if bar and tonumber(string.sub(held, bar + 1)) > now then return {'held', weighted, string.sub(held, 1, bar - 1), 0} end
  end
end
local used = tonumber(redis.call('GET', KEYS[4]) or '0')
if used >= tonumber(ARGV[6]) then
  ${COUNT_REFUSAL('KEYS[6]', 'quota', 'ARGV[7]')}
  return {'exceeded', weighted, '', used}
end
local claimed = ''
if ARGV[4] ~= '' then
  claimed = ARGV[4] .. '|' .. (now + tonumber(ARGV[5]))
  redis.call('SET', KEYS[3], claimed, 'PX', tonumber(ARGV[5]))
end
redis.call('SET', KEYS[5], claimed, 'PX', tonumber(ARGV[5]))
return {'admitted', weighted, '', redis.call('INCR', KEYS[4])}`;

/**
 * A send answered without an admission, counted against the limit alone: {1 or 0 (refused), the
 * weighted count}. Refused, it is counted in the company's refusals (KEYS[3], when one is named).
 */
const COUNT = `
${WEIGHTED_COUNT}
if weighted >= limit then
  if KEYS[3] ~= '' then
    ${COUNT_REFUSAL('KEYS[3]', 'rate', 'ARGV[4]')}
  end
  return {0, weighted}
end
${COUNT_REQUEST}
return {1, weighted}`;

// Gives back a unit and a claim: 1 if it did, 0 if the admission's token was spent or lapsed. The
// token is spent in the same step, so a release asked twice (retried after a timeout, or run by
// two hands) gives back one unit; the claim goes only if it is still the one the admission took,
// not a later send's. Without a token (KEYS[3] empty: a message queued by an earlier version), as then.
const RELEASE = `
local claimed = ''
if KEYS[3] ~= '' then
  claimed = redis.call('GET', KEYS[3])
  if not claimed then return 0 end
  redis.call('DEL', KEYS[3])
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('DECR', KEYS[1]) < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') end
end
if KEYS[2] ~= '' and (KEYS[3] == '' or redis.call('GET', KEYS[2]) == claimed) then redis.call('DEL', KEYS[2]) end
return 1`;

/**
 * How often a release with a token is asked before it is given up on, and the pause before each
 * retry: a token makes asking again safe, and the request that asks is waiting for its 503 meanwhile.
 */
const RELEASE_ATTEMPTS = 3;
const RELEASE_RETRY_PAUSE_MS = 3;

/** A quota key outlives its month by a few days, then expires by itself. */
const QUOTA_TTL_SECONDS = 40 * 24 * 3600;

/** What the service calls of @upstash/redis's Script: EVALSHA, falling back to EVAL on NOSCRIPT. */
type RedisScript<T> = { exec(keys: string[], args: string[]): Promise<T> };

type AdmitReply = [code: 'rebuild' | 'limited' | 'held' | 'exceeded' | 'admitted', counted: number, heldFor: string, used: number];

/**
 * The send's limits in Upstash Redis, shared by every isolate in every location: the scripts above,
 * run by @upstash/redis (by their SHA-1, sent whole the first time a Redis has not seen them).
 *
 * Each admission script answers within REDIS_TIMEOUT_MS or fails, and the send answers 503: it
 * fails closed, so no send goes beyond the plan. Redis may still run a script it got before the
 * wait was given up on; that errs the same way (an attempt counted, a claim held for CLAIM_TTL_MS,
 * at worst one quota unit counted for a send that was not made), never in the caller's favour.
 */
export class UpstashSendLimits implements SendLimits {
  private readonly admitScript: RedisScript<AdmitReply>;
  private readonly countScript: RedisScript<[counted: 0 | 1, weighted: number]>;
  private readonly releaseScript: RedisScript<number>;

  constructor(
    private readonly redis: Redis,
    private readonly baseline: QuotaBaseline,
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
  ) {
    this.admitScript = redis.createScript<AdmitReply>(ADMIT);
    this.countScript = redis.createScript<[0 | 1, number]>(COUNT);
    this.releaseScript = redis.createScript<number>(RELEASE);
  }

  async admit(attempt: SendAttempt, now: Date): Promise<SendAdmission> {
    const token = randomBase62(22);
    let reply = await this.run(attempt, now, '', token);
    // Once a month per company (or after Redis lost the key): rebuild the count from the database.
    if (reply[0] === 'rebuild') reply = await this.run(attempt, now, String(await this.baseline(attempt.companyId, attempt.period)), token);
    const [outcome, counted, heldFor, used] = reply;
    const rate = decision(outcome !== 'limited', counted, now);
    switch (outcome) {
      case 'admitted':
        return { outcome, rate, used, release: token };
      case 'held':
        return { outcome, rate, heldFor };
      case 'exceeded':
        return { outcome, rate, used, allowance: attempt.allowance };
      default:
        return { outcome: 'limited', rate };
    }
  }

  async count(apiKeyId: string, now: Date, companyId?: string): Promise<RateDecision> {
    const rule = rateRules.send;
    const counting = this.countScript.exec(
      [...sendWindowKeys(apiKeyId, now), companyId ? refusalsKey(companyId, quotaPeriod(now)) : ''],
      [String(rule.limit), String(rule.windowMs), String(now.getTime()), String(QUOTA_TTL_SECONDS)],
    );
    const [counted, weighted] = await withinDeadline(counting, this.timeoutMs, 'The send limit in Redis');
    return decision(counted === 1, weighted, now);
  }

  /**
   * With a token, asked up to RELEASE_ATTEMPTS times: a script that timed out may still have run,
   * and the token makes asking again harmless. Should every attempt fail, the unit stays counted
   * for the period and the claim lapses by itself: against the company, never in its favour.
   */
  async release(release: SendRelease): Promise<boolean> {
    const keys = [
      quotaKey(release.companyId, release.period),
      release.claimKey ? claimKey(release.apiKeyId, release.claimKey) : '',
      release.token ? admissionKey(release.companyId, release.period, release.token) : '',
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        const releasing = this.releaseScript.exec(keys, []);
        return (await withinDeadline(releasing, this.timeoutMs, "The release of a send's admission in Redis")) === 1;
      } catch (err) {
        if (!release.token || attempt >= RELEASE_ATTEMPTS) throw err;
        await new Promise((resume) => setTimeout(resume, RELEASE_RETRY_PAUSE_MS * attempt));
      }
    }
  }

  async used(companyId: string, period: string): Promise<number> {
    return Number((await this.redis.get<string>(quotaKey(companyId, period))) ?? 0);
  }

  async refusals(companyId: string, period: string): Promise<SendRefusals> {
    // The client is opened without its automatic deserialisation (upstash-redis.ts): HMGET answers the values in order.
    const reading = this.redis.hmget(refusalsKey(companyId, period), 'quota', 'rate') as unknown as Promise<[string | null, string | null] | null>;
    const [quota, rate] = (await withinDeadline(reading, this.timeoutMs, "The company's refused sends in Redis")) ?? [null, null];
    return { quota: Number(quota ?? 0), rate: Number(rate ?? 0) };
  }

  private run(attempt: SendAttempt, now: Date, baseline: string, token: string): Promise<AdmitReply> {
    const rule = rateRules.send;
    const admission = this.admitScript.exec(
      [
        ...sendWindowKeys(attempt.apiKeyId, now),
        attempt.claim ? claimKey(attempt.apiKeyId, attempt.claim.key) : 'esign:claim:none',
        quotaKey(attempt.companyId, attempt.period),
        admissionKey(attempt.companyId, attempt.period, token),
        refusalsKey(attempt.companyId, attempt.period),
      ],
      [
        String(rule.limit),
        String(rule.windowMs),
        String(now.getTime()),
        attempt.claim?.requestHash ?? '',
        String(CLAIM_TTL_MS),
        String(attempt.allowance),
        String(QUOTA_TTL_SECONDS),
        baseline,
      ],
    );
    return withinDeadline(admission, this.timeoutMs, "The send's admission in Redis");
  }
}

/** The send limit's decision from the weighted count a script answered (this send included when it counted). */
function decision(success: boolean, counted: number, now: Date): RateDecision {
  const rule = rateRules.send;
  const windowStart = Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
  return { success, limit: rule.limit, remaining: Math.max(0, rule.limit - counted), reset: windowStart + rule.windowMs };
}

/** The keys of a key's current and previous send windows, the order WEIGHTED_COUNT reads them. */
function sendWindowKeys(apiKeyId: string, now: Date): [current: string, previous: string] {
  const window = Math.floor(now.getTime() / rateRules.send.windowMs);
  return [`esign:send:${apiKeyId}:${window}`, `esign:send:${apiKeyId}:${window - 1}`];
}

const quotaKey = (companyId: string, period: string) => `esign:quota:${companyId}:${period}`;
const refusalsKey = (companyId: string, period: string) => `esign:refused:${companyId}:${period}`;
const claimKey = (apiKeyId: string, key: string) => `esign:claim:${apiKeyId}:${key}`;
/** Named by the quota it was taken from: a token cannot give back another company's or period's unit. */
const admissionKey = (companyId: string, period: string, token: string) => `esign:admission:${companyId}:${period}:${token}`;
