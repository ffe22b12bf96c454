import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v1Endpoints } from '../../functions/routes.js';
import { errorStatus } from '../../src/errors.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document of every /v1 endpoint, without the admin API', async () => {
    const answer = await call(stack, 'GET', '/v1/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    const operations = Object.entries(answer.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(v1Endpoints.map(({ route }) => `${route.method.toUpperCase()} ${route.path}`).sort());
    expect(operations.some((operation) => operation.includes('/admin'))).toBe(false);
    expect(answer.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents each error code under the status the service answers it with', async () => {
    const document = (await call(stack, 'GET', '/v1/openapi.json')).body;
    const documented = new Map<string, string>();
    for (const methods of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(methods)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          const codes: string[] = response.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? [];
          for (const code of codes) documented.set(code, status);
        }
      }
    }
    for (const [code, status] of documented) expect(String(errorStatus[code as keyof typeof errorStatus]), code).toBe(status);
    for (const code of ['unauthorized', 'invalid_api_key', 'insufficient_scope', 'permission_denied', 'rate_limited', 'validation_failed', 'template_not_found', 'contact_exists', 'payload_too_large']) {
      expect(documented.has(code), code).toBe(true);
    }
    // The whole table, including codes no single operation lists (not_found, method_not_allowed).
    for (const code of Object.keys(errorStatus)) expect(document.info.description).toContain(`\`${code}\``);
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
