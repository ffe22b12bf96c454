/**
 * Helpers of the admin suites: every change goes through the admin API over HTTP, as an operator
 * would make it, and every check of stored state reads the tables directly.
 */
import { expect } from 'vitest';
import { call } from '../support/http.js';
import { unique } from '../support/unique.js';
import { ADMIN_TOKEN, type TestStack } from '../support/stack.js';

/** One admin API request with the admin token. */
export const admin = (stack: TestStack, method: string, path: string, body?: unknown) => call(stack, method, path, { token: ADMIN_TOKEN, body });

/**
 * `POST /v1/auth/token` from an address of its own, so that the per-IP exchange limit (20 in 15
 * minutes) never couples one test to another.
 */
export const exchange = (stack: TestStack, apiKey: string) =>
  call(stack, 'POST', '/v1/auth/token', { body: { api_key: apiKey }, headers: { 'x-test-client-ip': `admin-${crypto.randomUUID()}` } });

/** An access token for the key, asserting that the exchange works. */
export async function tokenFor(stack: TestStack, apiKey: string): Promise<string> {
  const answer = await exchange(stack, apiKey);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.access_token as string;
}

export async function adminCompany(stack: TestStack, overrides: Record<string, unknown> = {}) {
  const answer = await admin(stack, 'POST', '/admin/v1/companies', {
    name: `Admin Co ${unique()}`,
    api_signature_requests_per_period: 50,
    ...overrides,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; name: string };
}

export async function adminUser(stack: TestStack, companyId: string, role = 'owner', email = `u-${unique()}@example.test`) {
  const answer = await admin(stack, 'PUT', `/admin/v1/companies/${companyId}/users/${encodeURIComponent(email)}`, { name: 'Test User', role });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; email: string };
}

export async function adminKey(stack: TestStack, companyId: string, owner: string, scopes: string[] = ['templates:read', 'contacts:read', 'contacts:write']) {
  const answer = await admin(stack, 'POST', `/admin/v1/companies/${companyId}/api-keys`, { owner, scopes });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; key: string; prefix: string };
}
