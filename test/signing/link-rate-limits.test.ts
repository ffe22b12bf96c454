/**
 * The signing page's rate limits over the real domain: a genuine link is counted per link, any
 * other token per client address, so that knowing a recipient id (API answers and webhook payloads
 * name it) is not enough to lock that signer out. In the integration run the limits are decided in
 * the machine's real Redis by the production limiter, through the Upstash REST stand-in.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { serveStandin, type ServedStandin } from '../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../local/standins/upstash-redis-rest.js';
import { UpstashRateLimiter } from '../../src/adapters/production/upstash-rate-limiter.js';
import { openUpstashRedis } from '../../src/adapters/production/upstash-redis.js';
import { REDIS_WAIT_MS } from '../support/eventually.js';
import { signingRateRule, unverifiedLinkRateRule } from '../../src/signing-page/security.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';
import { clearOfWindowEdge } from '../support/window-edge.js';

const REDIS_TOKEN = `link-limits-${crypto.randomUUID()}`;

let stack: TestStack;
let company: TestCompany;
let redisRest: ServedStandin | undefined;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 100 });
  if (inject('databaseUrl')) {
    redisRest = await serveStandin(createUpstashRedisRestStandin({ redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', token: REDIS_TOKEN }));
    stack.services.rateLimiter = new UpstashRateLimiter(openUpstashRedis(redisRest.url, REDIS_TOKEN, REDIS_WAIT_MS));
  }
});
afterAll(async () => {
  await stack.close();
  await redisRest?.close();
});
// Each test makes a limit's requests and one more; with the real clock, all in one window.
beforeEach(async () => {
  if (redisRest) await clearOfWindowEdge(signingRateRule.windowMs, 30_000);
}, 60_000);

/** An address of this run alone: Redis keeps its counts across runs. */
const address = () => `198.51.100.${Math.floor(Math.random() * 250)}-${crypto.randomUUID().slice(0, 8)}`;

/** A sent envelope's signer: the link's token and its recipient id. */
async function signerLink() {
  const template = await createTestTemplate(stack, company.id, { signing_order: 'parallel' });
  const tag = crypto.randomUUID().slice(0, 8);
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: template.id,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${tag}@example.test` },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const entry = (answer.body.signing_urls as { recipient_id: string; signing_url: string }[])[0]!;
  return { token: entry.signing_url.split('/sign/')[1]!, recipientId: entry.recipient_id };
}

const open = (token: string, from: string) => call(stack, 'GET', `/sign/${token}`, { headers: { 'x-test-client-ip': from } });
/** The recipient's id with a MAC of the right shape that is not the link's. */
const forged = (recipientId: string, n: number) => `${recipientId}.${String(n).padStart(43, 'A')}`;

describe('the signing page rate limits', () => {
  it('counts made-up MACs for a recipient per address: the 60th is answered, the 61st is 429, and the real link still opens', async () => {
    const { token, recipientId } = await signerLink();
    const attacker = address();
    for (let n = 1; n <= unverifiedLinkRateRule.limit; n++) expect((await open(forged(recipientId, n), attacker)).status, `attempt ${n}`).toBe(404);
    const limited = await open(forged(recipientId, 61), attacker);
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many attempts');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The signer, from anywhere (even the attacker's address), opens the real link.
    const opened = await open(token, address());
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('Cleo Client');
    expect((await open(token, attacker)).status).toBe(200);
    // Another address with a made-up MAC is not held back by the first one's count.
    expect((await open(forged(recipientId, 62), address())).status).toBe(404);
  });

  it('still limits a genuine link by itself: 60 requests in the window, the 61st is 429 from any address', async () => {
    const { token, recipientId } = await signerLink();
    for (let n = 1; n <= signingRateRule.limit; n++) expect((await open(token, address())).status, `request ${n}`).toBe(200);
    const limited = await open(token, address());
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many attempts');
    // The link's count is its own: a made-up MAC for the same recipient is only an invalid link.
    expect((await open(forged(recipientId, 1), address())).status).toBe(404);
  });

  it('counts malformed tokens and unknown recipients per address too', async () => {
    const from = address();
    const tokens = ['nonsense', `rcp_${'z'.repeat(22)}.${'A'.repeat(43)}`, 'a.b.c'];
    for (let n = 0; n < unverifiedLinkRateRule.limit; n++) expect((await open(tokens[n % tokens.length]!, from)).status).toBe(404);
    expect((await open('nonsense', from)).status).toBe(429);
  });
});
