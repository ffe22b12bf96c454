/**
 * The whole Worker inside workerd over its real production database adapter (drizzle neon-http and
 * @neondatabase/serverless), which reaches the Neon stand-in on 127.0.0.1 that global-setup.ts
 * started, migrated and seeded from Node.
 */
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, inject, it } from 'vitest';

const BASE = 'https://esign.example.test';
const stack = inject('workerdStack');

const worker = (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }));
};

/** Asks the stand-in directly, the way the Neon driver does, what the database holds. */
async function query(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const response = await fetch(stack.sqlEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Neon-Connection-String': String(env.DATABASE_URL) },
    body: JSON.stringify({ query: sql, params }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
}

type AccessToken = { access_token: string; token_type: string; expires_in: number };

let token: string;

beforeAll(async () => {
  // The Worker must be talking to this run's stand-in, not to a default or a real Neon.
  expect(env.NEON_FETCH_ENDPOINT).toBe(stack.sqlEndpoint);
  const response = await worker('POST', '/v1/auth/token', { body: { api_key: stack.seeded.apiKey } });
  expect(response.status).toBe(200);
  token = ((await response.json()) as AccessToken).access_token;
});

describe(`the Worker over the Neon stand-in (${stack.backend})`, () => {
  it('exchanges the seeded API key for an access token at POST /v1/auth/token', async () => {
    const response = await worker('POST', '/v1/auth/token', { body: { api_key: stack.seeded.apiKey } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as AccessToken;
    expect(body).toEqual({ access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), token_type: 'Bearer', expires_in: 3600 });
    expect((await worker('GET', '/v1/contacts', { token: body.access_token })).status).toBe(200);
  });

  it('refuses a key the database does not have with 401 invalid_api_key', async () => {
    const response = await worker('POST', '/v1/auth/token', { body: { api_key: `esk_live_${'0'.repeat(32)}` } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('lists the seeded template at GET /v1/templates', async () => {
    const response = await worker('GET', '/v1/templates', { token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string; name: string; roles: { name: string }[] }[]; pagination: unknown };
    expect(body.pagination).toEqual({ page: 1, per_page: expect.any(Number), total: 1, total_pages: 1 });
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ id: stack.seeded.templateId, name: stack.seeded.templateName });
    expect(body.data[0]!.roles.map((role) => role.name)).toEqual(['Client', 'Witness', 'Counsel']);
  });

  it('creates a contact at POST /v1/contacts that lands in the database, and refuses it twice', async () => {
    const input = { name: 'Wendy Workerd', email: `wendy-${crypto.randomUUID().slice(0, 8)}@example.test`, contact_number: '+1 555 0199' };
    const response = await worker('POST', '/v1/contacts', { token, body: input });
    expect(response.status).toBe(201);
    const contact = (await response.json()) as Record<string, unknown>;
    expect(contact).toEqual({ id: expect.any(String), ...input, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });

    const rows = await query('select company_id, name, email from contacts where id = $1', [contact.id]);
    expect(rows).toEqual([{ company_id: stack.seeded.companyId, name: input.name, email: input.email }]);

    const again = await worker('POST', '/v1/contacts', { token, body: { ...input, email: input.email.toUpperCase() } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'contact_exists' } });

    const list = (await (await worker('GET', '/v1/contacts', { token })).json()) as { data: unknown[] };
    expect(list.data).toContainEqual(contact);
  });

  it('answers 404 template_not_found for a template id the company does not have', async () => {
    const response = await worker('GET', `/v1/templates/${crypto.randomUUID()}`, { token });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'template_not_found' } });
  });

  it('stops honouring tokens of a revoked key on the very next request', async () => {
    expect((await worker('GET', '/v1/templates', { token })).status).toBe(200);
    // Revoked behind the Worker's back, as the admin API in another isolate would; restored after,
    // so that a rerun in watch mode (same stand-ins) still starts from a live key.
    await query('update api_keys set revoked_at = now() where id = $1', [stack.seeded.apiKeyId]);
    try {
      const after = await worker('GET', '/v1/templates', { token });
      expect(after.status).toBe(401);
      expect(await after.json()).toMatchObject({ error: { code: 'unauthorized' } });
      const exchange = await worker('POST', '/v1/auth/token', { body: { api_key: stack.seeded.apiKey } });
      expect(exchange.status).toBe(401);
    } finally {
      await query('update api_keys set revoked_at = null where id = $1', [stack.seeded.apiKeyId]);
    }
  });
});
