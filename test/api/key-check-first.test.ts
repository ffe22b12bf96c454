/**
 * The key check comes before anything else a request is told: a body the validator refuses, or one
 * that is not even JSON, still gets 401 for a revoked key and 403 for a key without the scope, as a
 * valid body does. And a guarded route whose handler never makes the key check answers 500, never
 * what its handler built.
 */
import { z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../functions/routes.js';
import { revokeApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { scopes } from '../../src/domain/auth/scopes.js';
import { createApp } from '../../src/app.js';
import { guard } from '../../src/http/authenticate.js';
import { endpointRoute } from '../../src/http/endpoint-route.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { addKeyHolder, asOperator, createTestCompany, type TestCompany, type TestKey } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
let revoked: TestKey;
let unscoped: TestKey;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
  revoked = await addKeyHolder(stack, company.id);
  await revokeApiKey(asOperator(stack), { apiKeyId: revoked.id });
  unscoped = await addKeyHolder(stack, company.id, { scopes: scopes.filter((scope) => scope !== 'contacts:write' && scope !== 'envelopes:send') });
});
afterAll(() => stack.close());

describe('the key check before validation', () => {
  const invalid = [
    { name: 'a body the schema refuses', options: { body: { name: '', email: 'not an address' } } },
    { name: 'a body that is not JSON', options: { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } } },
    { name: 'a body of another content type', options: { rawBody: 'name=Dana', headers: { 'content-type': 'application/x-www-form-urlencoded' } } },
  ];

  for (const { name, options } of invalid) {
    it(`answers ${name} with 401 for a revoked key, 403 for a key without the scope, and 422 for a good key`, async () => {
      const answers = await Promise.all([revoked, unscoped, company.owner].map((key) => call(stack, 'POST', '/v1/contacts', { ...options, token: key.token })));
      expect(answers.map((answer) => [answer.status, errorCode(answer)])).toEqual([
        [401, 'unauthorized'],
        [403, 'insufficient_scope'],
        [422, 'validation_failed'],
      ]);
    });
  }

  it("answers a send's invalid Idempotency-Key with 401 for a revoked key and 403 for a key without the scope", async () => {
    const headers = { 'idempotency-key': 'has spaces' };
    const body = { template_id: crypto.randomUUID(), recipients: [] };
    const answers = await Promise.all(
      [revoked, unscoped, company.owner].map((key) => call(stack, 'POST', '/v1/envelopes/from-template', { token: key.token, body, headers })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([401, 403, 422]);
  });

  it('reports the rate limit on a validation error, as on any answer of a checked key', async () => {
    const answer = await call(stack, 'GET', '/v1/contacts?per_page=0', { token: company.owner.token });
    expect([answer.status, errorCode(answer)]).toEqual([422, 'validation_failed']);
    expect(answer.headers.get('RateLimit-Limit')).toBe(String(rateRules.other.limit));
  });
});

describe('a guarded route whose handler skips the key check', () => {
  const { expectLogged } = expectErrorLogs();
  const careless = endpointRoute({
    middleware: guard('contacts:read', rateRules.other),
    request: { query: z.object({ page: z.coerce.number().int().min(1).optional() }) },
    responses: { 200: { description: 'What the handler built.' } },
  });
  const table: RouteEntry[] = [
    {
      kind: 'endpoint',
      method: 'get',
      path: '/v1/careless',
      load: async () => ({
        route: { ...careless, method: 'get', path: '/v1/careless' },
        handler: (c: { json: (body: unknown) => Response }) => c.json({ secret: 'unchecked' }),
      }),
    },
  ];

  it('answers 500 and never the body the handler built, whoever asks', async () => {
    expectLogged(/answered without checking the API key/);
    const app = createApp(stack.services, table);
    for (const key of [company.owner, revoked]) {
      const answer = await call({ ...stack, app }, 'GET', '/v1/careless', { token: key.token });
      expect([answer.status, errorCode(answer)]).toEqual([500, 'internal_error']);
      expect(JSON.stringify(answer.body)).not.toContain('unchecked');
    }
  });

  it('still refuses a missing token with 401, before the handler', async () => {
    const answer = await call({ ...stack, app: createApp(stack.services, table) }, 'GET', '/v1/careless');
    expect([answer.status, errorCode(answer)]).toEqual([401, 'unauthorized']);
  });
});
