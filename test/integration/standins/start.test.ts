import { neon, neonConfig } from '@neondatabase/serverless';
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningStandins, startStandins } from '../../../local/standins/start.js';

// startStandins over the machine's real PostgreSQL and Redis, as `npm run dev` would run it.
describe('startStandins (real services)', () => {
  let standins: RunningStandins;

  beforeAll(async () => {
    standins = await startStandins({
      postgresUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      redisToken: 'integration-token',
    });
  });

  afterAll(async () => {
    await standins?.close();
  });

  it('serves Neon over PostgreSQL and Upstash REST over Redis', async () => {
    expect(standins.neon.backend).toBe('postgres');
    neonConfig.fetchEndpoint = () => standins.neon.sqlEndpoint;
    const [row] = await neon('postgresql://postgres@localhost/postgres')`select version() as v`;
    expect(String(row?.v)).toMatch(/^PostgreSQL/);
    expect(standins.redis?.token).toBe('integration-token');
    const redis = new Redis({ url: standins.redis!.url, token: standins.redis!.token });
    expect(await redis.ping()).toBe('PONG');
  });
});
