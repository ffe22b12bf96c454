import type { Redis } from '@upstash/redis';
import type { QuotaCounter } from '../../ports/quota.js';

// Check and take in one script: Redis runs it atomically, so N concurrent sends with Q left get
// exactly min(N, Q). The key outlives its month by a few days, then expires by itself.
const CONSUME = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return -1 - used end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2])) end
return used`;

const REFUND = `
local used = redis.call('DECR', KEYS[1])
if used < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') return 0 end
return used`;

const KEY_TTL_SECONDS = 40 * 24 * 3600;

/** The plan's API signature requests, counted per company and month in Upstash Redis. */
export class UpstashQuotaCounter implements QuotaCounter {
  private readonly consumeScript;
  private readonly refundScript;

  constructor(private readonly redis: Redis) {
    this.consumeScript = redis.createScript<number>(CONSUME);
    this.refundScript = redis.createScript<number>(REFUND);
  }

  async consume(companyId: string, period: string, allowance: number): Promise<{ ok: boolean; used: number }> {
    const result = await this.consumeScript.exec([key(companyId, period)], [String(allowance), String(KEY_TTL_SECONDS)]);
    return result < 0 ? { ok: false, used: -1 - result } : { ok: true, used: result };
  }

  async refund(companyId: string, period: string): Promise<void> {
    await this.refundScript.exec([key(companyId, period)], []);
  }

  async used(companyId: string, period: string): Promise<number> {
    return Number((await this.redis.get<number>(key(companyId, period))) ?? 0);
  }
}

const key = (companyId: string, period: string) => `esign:quota:${companyId}:${period}`;
