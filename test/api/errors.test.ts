import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from '../support/http.js';
import { addKeyHolder, createTestCompany, createTestTemplate, type TestCompany, type TestKey } from '../support/factories.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { expectError } from '../support/expect-error.js';
import { documentedCodes } from '../support/documented-codes.js';
import { unique } from '../support/unique.js';

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
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(['contact_number', 'email', 'extra', 'name']);
  });
});

describe('the codes the error tables of docs/api-guide.md and docs/admin.md fix', () => {
  const documented = documentedCodes();
  const asAdmin = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
  type Fixtures = { templateId: string; unshared: string; narrow: TestKey; viewer: TestKey; broke: TestCompany; brokeTemplateId: string; hookId: string };
  const fixtures = {} as Fixtures;
  const hookUrl = `https://hooks.example.test/${unique()}`;
  const send = (token: string, templateId: string, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    call(stack, 'POST', '/v1/envelopes/from-template', {
      token,
      headers,
      body: {
        template_id: templateId,
        recipients: [
          { role: 'Client', name: 'Cleo Client', email: `cleo-${unique()}@example.test` },
          { role: 'Witness', name: 'Walt Witness', email: `walt-${unique()}@example.test` },
        ],
        ...overrides,
      },
    });

  beforeAll(async () => {
    fixtures.templateId = (await createTestTemplate(stack, company.id)).id;
    fixtures.unshared = (await createTestTemplate(stack, company.id, { share_signing_links: false })).id;
    fixtures.narrow = await addKeyHolder(stack, company.id, { scopes: ['templates:read'] });
    fixtures.viewer = await addKeyHolder(stack, company.id, { role: 'viewer' });
    fixtures.broke = await createTestCompany(stack, { quota: 0 });
    fixtures.brokeTemplateId = (await createTestTemplate(stack, fixtures.broke.id)).id;
    const hook = await call(stack, 'POST', '/v1/webhooks', { token: company.owner.token, body: { url: hookUrl, events: ['envelope.sent'] } });
    fixtures.hookId = hook.body.id;
  });

  // Each code the service gives, asked for through the stack as a client would meet it.
  const cases: [string, () => Promise<Answer>][] = [
    ['unauthorized', () => call(stack, 'GET', '/v1/templates')],
    ['invalid_api_key', () => call(stack, 'POST', '/v1/auth/token', { body: { api_key: 'esk_test_unknown_key_123' } })],
    ['insufficient_scope', () => call(stack, 'GET', '/v1/contacts', { token: fixtures.narrow.token })],
    ['permission_denied', () => call(stack, 'POST', '/v1/contacts', { token: fixtures.viewer.token, body: { name: 'A', email: 'a@example.test' } })],
    ['not_found', () => call(stack, 'GET', '/v1/nothing-here')],
    ['template_not_found', () => call(stack, 'GET', `/v1/templates/${crypto.randomUUID()}`, { token: company.owner.token })],
    ['envelope_not_found', () => call(stack, 'GET', `/v1/envelopes/${crypto.randomUUID()}/signing-links`, { token: company.owner.token })],
    ['webhook_not_found', () => call(stack, 'DELETE', `/v1/webhooks/${crypto.randomUUID()}`, { token: company.owner.token })],
    [
      'delivery_not_found',
      () => call(stack, 'POST', `/v1/webhooks/${fixtures.hookId}/deliveries/${crypto.randomUUID()}/redeliver`, { token: company.owner.token }),
    ],
    ['document_not_found', () => call(stack, 'GET', `/v1/documents/${crypto.randomUUID()}`)],
    ['method_not_allowed', () => call(stack, 'DELETE', '/v1/templates', { token: company.owner.token })],
    [
      'contact_exists',
      async () => {
        const body = { name: 'Twice', email: `twice-${unique()}@example.test` };
        await call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body });
        return call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body });
      },
    ],
    ['webhook_exists', () => call(stack, 'POST', '/v1/webhooks', { token: company.owner.token, body: { url: hookUrl, events: ['envelope.sent'] } })],
    ['payload_too_large', () => call(stack, 'POST', '/v1/contacts', { token: company.owner.token, rawBody: 'x'.repeat(MiB + 1) })],
    ['validation_failed', () => call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body: {} })],
    ['quota_exceeded', () => send(fixtures.broke.owner.token, fixtures.brokeTemplateId)],
    ['unknown_signer_role', () => send(company.owner.token, fixtures.templateId, { recipients: [{ role: 'Nobody', name: 'N', email: 'n@example.test' }] })],
    ['sender_not_found', () => send(company.owner.token, fixtures.templateId, { sender_email: `nobody-${unique()}@example.test` })],
    [
      'signing_links_disabled',
      async () => {
        const sent = await send(company.owner.token, fixtures.unshared);
        return call(stack, 'GET', `/v1/envelopes/${sent.body.envelope_id}/signing-links`, { token: company.owner.token });
      },
    ],
    [
      'idempotency_key_reused',
      async () => {
        const key = { 'idempotency-key': `order-${unique()}` };
        await send(company.owner.token, fixtures.templateId, {}, key);
        return send(company.owner.token, fixtures.templateId, { email_subject: 'Another body' }, key);
      },
    ],
    ['company_not_found', () => call(stack, 'GET', `/admin/v1/companies/${crypto.randomUUID()}/users`, asAdmin)],
    ['api_key_not_found', () => call(stack, 'POST', '/admin/v1/api-keys/key_unknown/revoke', asAdmin)],
    [
      'user_not_found',
      () =>
        call(stack, 'POST', `/admin/v1/companies/${company.id}/api-keys`, {
          ...asAdmin,
          body: { owner: `nobody-${unique()}@example.test`, scopes: ['templates:read'] },
        }),
    ],
    [
      'conflict',
      () => call(stack, 'POST', '/admin/v1/companies', { ...asAdmin, body: { id: company.id, name: 'Again', api_signature_requests_per_period: 1 } }),
    ],
  ];

  it.each(cases)('answers %s with the status the guides give it', async (code, ask) => {
    expect(documented.has(code), `${code} is in a guide's error table`).toBe(true);
    expectError(await ask(), documented.get(code)!, code);
  });

  // The codes that need a long run-up, each held to its status by the suite that makes it happen.
  const elsewhere: Record<string, string> = {
    rate_limited: 'rate-limits.test.ts',
    service_unavailable: 'redis-unreachable.test.ts',
    internal_error: 'request-ids.test.ts',
    replay_in_progress: 'webhook-recovery.test.ts',
    delivery_pending: 'webhook-recovery.test.ts',
    download_link_expired: 'webhook-recovery.test.ts',
    webhook_limit_reached: 'webhooks.test.ts',
    contact_limit_reached: 'contacts.test.ts',
    idempotency_request_in_progress: 'send-guarantees.test.ts',
    invalid_document: 'test/admin/import-template.test.ts',
  };

  it('covers every documented code, here or in the suite named for it', () => {
    const covered = [...cases.map(([code]) => code), ...Object.keys(elsewhere)];
    expect(new Set(covered).size).toBe(covered.length);
    expect(covered.sort()).toEqual([...documented.keys()].sort());
  });
});
