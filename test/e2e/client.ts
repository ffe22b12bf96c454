/** HTTP calls to the `npm run dev` server of the e2e run, and companies made through the admin API. */
import { inject } from 'vitest';

export type Answer<T = any> = { status: number; body: T; headers: Headers };

export async function api<T = any>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${inject('e2eBaseUrl')}${path}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

export const admin = <T = any>(method: string, path: string, body?: unknown) => api<T>(method, path, { token: inject('e2eAdminToken'), body });

export const allScopes = ['templates:read', 'contacts:read', 'contacts:write', 'envelopes:send', 'webhooks:read', 'webhooks:write'];

/** A key of a new user of the company, exchanged for a token (one of the 20 exchanges per IP). */
export async function keyHolder(companyId: string, options: { role?: string; scopes?: string[] } = {}) {
  const email = `user-${crypto.randomUUID().slice(0, 8)}@example.test`;
  await admin('PUT', `/admin/v1/companies/${companyId}/users/${email}`, { name: 'E2E User', role: options.role ?? 'owner', esign_seat: true });
  const key = (await admin('POST', `/admin/v1/companies/${companyId}/api-keys`, { owner: email, scopes: options.scopes ?? allScopes })).body;
  const token = (await api('POST', '/v1/auth/token', { body: { api_key: key.key } })).body.access_token as string;
  return { id: key.id as string, key: key.key as string, token, email };
}

export async function newCompany(quota = 100) {
  const company = (await admin('POST', '/admin/v1/companies', { name: `E2E ${crypto.randomUUID().slice(0, 8)}`, api_signature_requests_per_period: quota }))
    .body;
  return { id: company.id as string, owner: await keyHolder(company.id) };
}
