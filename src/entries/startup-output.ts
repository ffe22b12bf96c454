/** What the Node entries (`npm start`, `npm run dev`) share: taking the port, and what they print. */
import { serve, type ServerType } from '@hono/node-server';
import { exchangeApiKey } from '../domain/auth/exchange-api-key.js';
import { ApiError, type Issue } from '../errors.js';
import type { SeededKey } from '../seed/load-seed.js';
import type { Services } from '../services.js';

export const demoSeedPath = new URL('../../seed/demo.json', import.meta.url);

export function listen(port: number, fetch: (request: Request, env: unknown) => Promise<Response>): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port }, () => resolve(server));
    server.once('error', (err: NodeJS.ErrnoException) => {
      const reason = err.code === 'EADDRINUSE' ? `127.0.0.1:${port} is already in use; set PORT to a free port` : err.message;
      reject(new Error(`Cannot listen on PORT ${port}: ${reason}`));
    });
  });
}

/**
 * A key that works, the admin token, and curl lines that work as printed. The key shown is one
 * that can read templates (the widest first) and still exchanges: a seeded key rotated or revoked
 * since is passed over for the next.
 */
export async function welcome(services: Services, keys: SeededKey[], baseUrl: string, mailboxUrl = `${baseUrl}/dev/mailbox`): Promise<string> {
  const lines = ['', `Admin token:  ${services.config.adminToken}`, `Dev mailbox:  ${mailboxUrl}`, `OpenAPI:      ${baseUrl}/v1/openapi.json`];
  const candidates = keys.filter((key) => key.scopes.includes('templates:read')).sort((a, b) => b.scopes.length - a.scopes.length);
  for (const key of candidates) {
    const token = await exchangeApiKey(services, key.key).catch(() => undefined);
    if (!token) continue;
    lines.push(
      `API key:      ${key.key}  (${key.companyName}, owner ${key.owner})`,
      '',
      'Exchange the key for a one-hour access token:',
      `  curl -s -X POST ${baseUrl}/v1/auth/token -H 'content-type: application/json' -d '{"api_key":"${key.key}"}'`,
      '',
      'List templates with a token made for you now (valid one hour):',
      `  curl -s ${baseUrl}/v1/templates -H 'authorization: Bearer ${token.access_token}'`,
    );
    return lines.join('\n');
  }
  lines.push(
    keys.length > 0
      ? 'No seeded key that reads templates works any more (rotated or revoked); create one with the admin API.'
      : 'The seed has no API keys; create one with the admin API.',
  );
  return lines.join('\n');
}

/** A failure as a person can act on it: the message, and each problem of a validation failure. */
export function describeFailure(err: unknown): string {
  if (err instanceof ApiError) {
    const issues = Array.isArray(err.details.issues) ? (err.details.issues as Issue[]) : [];
    return [err.message, ...issues.map((issue) => `  ${issue.path || '(top level)'}: ${issue.message}`)].join('\n');
  }
  return err instanceof Error ? err.message : String(err);
}

