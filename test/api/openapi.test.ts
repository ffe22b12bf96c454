import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminEndpoints, v1Endpoints } from '../../functions/routes.js';
import { documentedCodes } from '../support/documented-codes.js';
import { addKeyHolder, createTestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;

/** The part of an OpenAPI response object that names the error codes it answers with. */
type DocumentedResponse = { content?: { 'application/json'?: { schema?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } } } };
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

describe('the routing table', () => {
  it('states each endpoint once', () => {
    for (const table of [v1Endpoints, adminEndpoints]) expect(new Set(table.map(({ method, path }) => `${method} ${path}`)).size).toBe(table.length);
  });
});

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document of every /v1 endpoint, without the admin API', async () => {
    const answer = await call(stack, 'GET', '/v1/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    const operations = Object.entries(answer.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(v1Endpoints.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort());
    expect(operations.some((operation) => operation.includes('/admin'))).toBe(false);
    expect(answer.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  /** Each operation's documented errors: `GET /v1/templates` → code → status. */
  async function documentedErrors() {
    const document = (await call(stack, 'GET', '/v1/openapi.json')).body;
    const byOperation = new Map<string, Map<string, number>>();
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const codes = new Map<string, number>();
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const code of response.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? []) codes.set(code, Number(status));
        }
        byOperation.set(`${method.toUpperCase()} ${path}`, codes);
      }
    }
    return { document, byOperation };
  }

  it('documents each error code under the status the guides give it', async () => {
    const { document, byOperation } = await documentedErrors();
    const documented = documentedCodes();
    for (const [operation, codes] of byOperation) for (const [code, status] of codes) expect(status, `${operation}: ${code}`).toBe(documented.get(code));
    // The whole table, including codes no single operation lists (not_found, method_not_allowed).
    for (const code of documented.keys()) expect(document.info.description).toContain(`\`${code}\``);
  });

  it('lists, for each operation, the error a real call of it answers, under that status', async () => {
    const company = await createTestCompany(stack);
    const reader = await addKeyHolder(stack, company.id, { role: 'viewer', scopes: ['templates:read'] });
    const someone = `dana-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body: { name: 'Dana', email: someone } });
    const cases: [operation: string, method: string, path: string, options: Parameters<typeof call>[3]][] = [
      ['POST /v1/auth/token', 'POST', '/v1/auth/token', { body: { api_key: 'esk_test_nosuchkey0000000000000000000000' } }],
      ['GET /v1/templates', 'GET', '/v1/templates', {}],
      ['GET /v1/templates', 'GET', '/v1/templates?per_page=101', { token: company.owner.token }],
      ['GET /v1/templates/{id}', 'GET', `/v1/templates/${crypto.randomUUID()}`, { token: company.owner.token }],
      ['GET /v1/contacts', 'GET', '/v1/contacts', { token: reader.token }],
      ['POST /v1/contacts', 'POST', '/v1/contacts', { token: company.owner.token, body: { name: 'Dana', email: someone } }],
      ['POST /v1/contacts', 'POST', '/v1/contacts', { token: reader.token, body: { name: 'Dana', email: someone } }],
      [
        'POST /v1/envelopes/from-template',
        'POST',
        '/v1/envelopes/from-template',
        { token: company.owner.token, body: { template_id: crypto.randomUUID(), recipients: [{ role: 'Client', name: 'C', email: 'c@example.test' }] } },
      ],
      ['GET /v1/envelopes/{id}/signing-links', 'GET', '/v1/envelopes/env_nosuchenvelope0000000000/signing-links', { token: company.owner.token }],
      ['DELETE /v1/webhooks/{id}', 'DELETE', `/v1/webhooks/${crypto.randomUUID()}`, { token: company.owner.token }],
      ['POST /v1/webhooks', 'POST', '/v1/webhooks', { token: company.owner.token, body: { url: 'not a url', events: [] } }],
    ];
    const { byOperation } = await documentedErrors();
    for (const [operation, method, path, options] of cases) {
      const answer = await call(stack, method, path, options);
      const code = errorCode(answer)!;
      expect(code, `${method} ${path} answered ${answer.status} without an error code`).toBeDefined();
      expect(byOperation.get(operation)?.get(code), `${operation} answered ${answer.status} ${code}`).toBe(answer.status);
    }
  });

  it('documents the pagination parameters with their bounds', async () => {
    const document = (await call(stack, 'GET', '/v1/openapi.json')).body;
    const parameters = document.paths['/v1/contacts'].get.parameters as { name: string; schema: { minimum?: number; maximum?: number } }[];
    expect(parameters.find((p) => p.name === 'per_page')?.schema).toMatchObject({ minimum: 1, maximum: 100 });
    expect(parameters.find((p) => p.name === 'page')?.schema).toMatchObject({ minimum: 1 });
  });

  it('serves the admin API its own document', async () => {
    const answer = await call(stack, 'GET', '/admin/v1/openapi.json', { headers: { authorization: 'Bearer adm_test_admin_token_0123456789' } });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.paths)).toContain('/admin/v1/api-keys/{id}/rotate');
  });
});
