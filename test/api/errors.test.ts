import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCode } from '../support/http.js';
import { createTestCompany, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';
import { expectError } from '../support/expect-error.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

const MiB = 1024 * 1024;

describe('errors outside any handler', () => {
  it('answers an unknown route with 404 not_found, with or without a token', async () => {
    expectError(await call(stack, 'GET', '/v1/nothing-here'), 404, 'not_found');
    expectError(await call(stack, 'GET', '/v2/templates', { token: company.owner.token }), 404, 'not_found');
    expectError(await call(stack, 'GET', '/'), 404, 'not_found');
  });

  it('answers a known path with another method with 405 method_not_allowed and Allow', async () => {
    const answer = await call(stack, 'DELETE', '/v1/templates', { token: company.owner.token });
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('Allow')).toBe('GET');
    const put = await call(stack, 'PUT', '/v1/contacts', { body: {} });
    expectError(put, 405, 'method_not_allowed');
    expect(put.headers.get('Allow')).toBe('GET, POST');
    expect((await call(stack, 'GET', '/v1/auth/token')).headers.get('Allow')).toBe('POST');
    expect((await call(stack, 'POST', `/v1/templates/${crypto.randomUUID()}`)).status).toBe(405);
  });
});

describe('bodies that are not what the endpoint takes', () => {
  const post = (rawBody: string | Uint8Array, contentType = 'application/json') =>
    call(stack, 'POST', '/v1/contacts', { token: company.owner.token, rawBody, headers: { 'content-type': contentType } });

  it('answers malformed JSON with validation_failed', async () => {
    expectError(await post('{"name": "A",'), 422, 'validation_failed');
    expectError(await post(''), 422, 'validation_failed');
  });

  it('answers a JSON array, a string, a number or null with validation_failed', async () => {
    for (const body of ['[]', '[{"name":"A","email":"a@example.test"}]', '"hello"', '42', 'null']) {
      expectError(await post(body), 422, 'validation_failed');
    }
  });

  it('answers a body that is not JSON with validation_failed', async () => {
    expectError(await post('name=A&email=a@example.test', 'application/x-www-form-urlencoded'), 422, 'validation_failed');
    expectError(await post('{"name":"A","email":"a@example.test"}', 'text/plain'), 422, 'validation_failed');
  });

  it('answers a body over 1 MiB with 413 payload_too_large, and takes one just under', async () => {
    const padded = (size: number) => {
      const start = '{"name":"A","email":"big@example.test","contact_number":null,"pad":"';
      return `${start}${'x'.repeat(size - start.length - 2)}"}`;
    };
    expectError(await post(padded(2 * MiB)), 413, 'payload_too_large');
    expectError(await post(padded(MiB + 1)), 413, 'payload_too_large');
    // Exactly 1 MiB passes the size check and reaches validation (the pad field is unknown).
    expectError(await post(padded(MiB)), 422, 'validation_failed');
    const token = await call(stack, 'POST', '/v1/auth/token', { rawBody: padded(2 * MiB), headers: { 'content-type': 'application/json' } });
    expectError(token, 413, 'payload_too_large');
  });

  it('lists every problem of a body at once, each with its path', async () => {
    const answer = await call(stack, 'POST', '/v1/contacts', {
      token: company.owner.token,
      body: { name: '', email: 'nope', contact_number: 5, extra: 1 },
    });
    expectError(answer, 422, 'validation_failed');
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'contact_number',
      'email',
      'extra',
      'name',
    ]);
  });
});

describe('the codes the error table of docs/api-guide.md fixes', () => {
  it('keeps the code of every error answer in its documented status', async () => {
    expect(errorCode(await call(stack, 'GET', '/v1/templates'))).toBe('unauthorized');
    expect(errorCode(await call(stack, 'POST', '/v1/auth/token', { body: { api_key: 'esk_test_unknown_key_123' } }))).toBe('invalid_api_key');
  });
});
