/** The Worker's configuration check, run where the Worker runs, and on the env workerd really hands it. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readWorkerConfig } from '../../src/entries/worker-config.js';

/** Every secret here carries S3CR3T, so a message that leaks one can be caught. */
const complete = {
  DATABASE_URL: 'postgresql://esign:pw-S3CR3T-db@db.example.test/esign',
  UPSTASH_REDIS_REST_URL: 'https://redis.example.test',
  UPSTASH_REDIS_REST_TOKEN: 'redis-S3CR3T-token',
  QSTASH_TOKEN: 'qstash-S3CR3T-token',
  QSTASH_CURRENT_SIGNING_KEY: 'sig-S3CR3T-current',
  QSTASH_NEXT_SIGNING_KEY: 'sig-S3CR3T-next',
  TOKEN_SECRET: 'token-S3CR3T-0123456789abcdefghijklmnop',
  ADMIN_TOKEN: 'admin-S3CR3T-0123456789',
  BASE_URL: 'https://esign.example.test/',
  EMAIL_API_KEY: 'email-S3CR3T-key',
  EMAIL_FROM: 'E-Signing <sign@esign.example.test>',
  WEBHOOK_SECRET_KEYS: 'test1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
};

/** The message readWorkerConfig stops with, or '' when it accepts the env. */
function problemWith(environment: Record<string, unknown>): string {
  try {
    readWorkerConfig(environment);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

function without(name: keyof typeof complete) {
  const { [name]: _, ...rest } = complete;
  return rest;
}

/** Names the variable, and leaks neither the value given nor any other secret. */
function expectRefusal(environment: Record<string, unknown>, name: string) {
  const message = problemWith(environment);
  expect(message, `${name} should be refused`).toMatch(/^The Worker's configuration is incomplete: /);
  expect(message).toContain(name);
  expect(message).not.toMatch(/S3CR3T|pw-/);
  for (const value of Object.values(environment)) if (typeof value === 'string' && value.length >= 3) expect(message).not.toContain(value);
}

describe('readWorkerConfig', () => {
  it('accepts the env this Worker gets from wrangler.toml and the suite’s bindings', () => {
    const config = readWorkerConfig(env);
    expect(config.BASE_URL).toBe('https://esign.example.test');
    expect(config.ALLOW_IN_PROCESS_LIMITS).toBe('true');
    expect(config.EMAIL_API_URL).toBe('https://api.resend.com/emails');
    expect(config.NEON_FETCH_ENDPOINT).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sql$/);
  });

  it('accepts a complete env, fills the defaults and drops the trailing slash of BASE_URL', () => {
    const config = readWorkerConfig(complete);
    const { WEBHOOK_SECRET_KEYS: keys, ...plain } = complete;
    expect(config).toMatchObject({ ...plain, BASE_URL: 'https://esign.example.test' });
    expect(config.WEBHOOK_SECRET_KEYS.map((key) => [key.id, key.key.length])).toEqual([[keys.split(':')[0], 32]]);
    expect(config.QSTASH_URL).toBe('https://qstash.upstash.io');
    expect(config.EMAIL_API_URL).toBe('https://api.resend.com/emails');
    expect(config.ALLOW_IN_PROCESS_LIMITS).toBe('false');
    expect(config.NEON_FETCH_ENDPOINT).toBeUndefined();
    // Optional ones may be left out.
    const { ADMIN_TOKEN: _, ...noAdmin } = complete;
    expect(readWorkerConfig(noAdmin).ADMIN_TOKEN).toBeUndefined();
  });

  it('accepts no Redis only when in-process limits are allowed', () => {
    const { UPSTASH_REDIS_REST_URL: _u, UPSTASH_REDIS_REST_TOKEN: _t, ...noRedis } = complete;
    expect(problemWith({ ...noRedis, ALLOW_IN_PROCESS_LIMITS: 'true' })).toBe('');
    expectRefusal(noRedis, 'UPSTASH_REDIS_REST_URL');
    expectRefusal({ ...noRedis, ALLOW_IN_PROCESS_LIMITS: 'false' }, 'UPSTASH_REDIS_REST_URL');
  });

  const required = [
    'DATABASE_URL',
    'QSTASH_TOKEN',
    'QSTASH_CURRENT_SIGNING_KEY',
    'QSTASH_NEXT_SIGNING_KEY',
    'TOKEN_SECRET',
    'BASE_URL',
    'EMAIL_API_KEY',
    'EMAIL_FROM',
    'WEBHOOK_SECRET_KEYS',
  ] as const;

  it.each(required)('refuses an env without %s, naming it', (name) => {
    expectRefusal(without(name), name);
  });

  it.each(required)('refuses %s set to an empty string, naming it', (name) => {
    expectRefusal({ ...complete, [name]: '' }, name);
  });

  it('refuses one half of the Redis pair, naming the other', () => {
    expectRefusal(without('UPSTASH_REDIS_REST_TOKEN'), 'UPSTASH_REDIS_REST_TOKEN');
    expectRefusal(without('UPSTASH_REDIS_REST_URL'), 'UPSTASH_REDIS_REST_URL');
    expectRefusal({ ...complete, UPSTASH_REDIS_REST_TOKEN: '' }, 'UPSTASH_REDIS_REST_TOKEN');
  });

  it.each([
    ['DATABASE_URL', 'mysql://esign:pw-S3CR3T-db@db.example.test/esign'],
    ['DATABASE_URL', 'db.example.test:5432'],
    ['DATABASE_URL', 'postgresql://esign:pw-S3CR3T-db@db.example.test:99999/esign'],
    ['TOKEN_SECRET', 'short-S3CR3T'],
    ['ADMIN_TOKEN', 'adm-S3CR3T'],
    ['BASE_URL', 'esign.example.test'],
    ['UPSTASH_REDIS_REST_URL', 'redis.example.test'],
    ['QSTASH_URL', 'qstash.example.test'],
    ['EMAIL_API_URL', 'api.resend.com/emails'],
    ['EMAIL_FROM', 'ab'],
    ['WEBHOOK_SECRET_KEYS', 'S3CR3T-not-a-key'],
    ['WEBHOOK_SECRET_KEYS', 'k1:c2hvcnQ='],
    ['WEBHOOK_SECRET_KEYS', 'k1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=,k1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc='],
  ])('refuses a malformed %s (%s), naming it', (name, value) => {
    expectRefusal({ ...complete, [name]: value }, name);
  });

  it('lists every problem at once', () => {
    const { TOKEN_SECRET: _, ...rest } = complete;
    const message = problemWith({ ...rest, BASE_URL: 'nowhere', EMAIL_FROM: 'x' });
    for (const name of ['TOKEN_SECRET', 'BASE_URL', 'EMAIL_FROM']) expect(message).toContain(name);
  });

  it('refuses a URL setting that is not http(s), naming it', () => {
    expectRefusal({ ...complete, BASE_URL: 'javascript:alert(1)' }, 'BASE_URL');
    expectRefusal({ ...complete, EMAIL_API_URL: 'ftp://mail.example.test/emails' }, 'EMAIL_API_URL');
  });

  it('refuses a malformed NEON_FETCH_ENDPOINT, naming it', () => {
    expectRefusal({ ...complete, NEON_FETCH_ENDPOINT: 'localhost:4444/sql' }, 'NEON_FETCH_ENDPOINT');
  });

  it('refuses ALLOW_IN_PROCESS_LIMITS other than "true"/"false" (a TOML boolean, say), naming it', () => {
    expectRefusal({ ...complete, ALLOW_IN_PROCESS_LIMITS: true }, 'ALLOW_IN_PROCESS_LIMITS');
  });

  it('waits 1 s for Redis unless REDIS_TIMEOUT_MS says otherwise, from 100 to 10000 ms', () => {
    expect(readWorkerConfig(complete).REDIS_TIMEOUT_MS).toBe(1000);
    expect(readWorkerConfig({ ...complete, REDIS_TIMEOUT_MS: '100' }).REDIS_TIMEOUT_MS).toBe(100);
    expect(readWorkerConfig({ ...complete, REDIS_TIMEOUT_MS: '10000' }).REDIS_TIMEOUT_MS).toBe(10_000);
    expectRefusal({ ...complete, REDIS_TIMEOUT_MS: '99' }, 'REDIS_TIMEOUT_MS');
    expectRefusal({ ...complete, REDIS_TIMEOUT_MS: '10001' }, 'REDIS_TIMEOUT_MS');
    expectRefusal({ ...complete, REDIS_TIMEOUT_MS: '1.5' }, 'REDIS_TIMEOUT_MS');
  });

  it('logs requests unless LOG_REQUESTS is "false", and refuses anything else, naming it', () => {
    expect(readWorkerConfig(complete).LOG_REQUESTS).toBe('true');
    expect(readWorkerConfig({ ...complete, LOG_REQUESTS: 'false' }).LOG_REQUESTS).toBe('false');
    expectRefusal({ ...complete, LOG_REQUESTS: false }, 'LOG_REQUESTS');
    expectRefusal({ ...complete, LOG_REQUESTS: 'off' }, 'LOG_REQUESTS');
  });
});
