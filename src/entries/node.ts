/**
 * `npm start`: the service on Node with the embedded stack (PGlite in DATA_DIR, in-process rate
 * limiter, quota counter, queue and dev mailbox). Prints what a new user needs to make a call.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { embeddedServices } from '../adapters/embedded/embedded-services.js';
import { openPgliteDatabase } from '../adapters/embedded/pglite-database.js';
import { createApp } from '../app.js';
import { exchangeApiKey } from '../domain/auth/exchange-api-key.js';
import { ApiError, type Issue } from '../errors.js';
import { devMailboxRoutes } from '../http/dev-mailbox.js';
import { type SeededKey, loadSeedFile } from '../seed/load-seed.js';
import { loadOrCreateLocalSecrets } from './local-secrets.js';
import { readNodeConfig } from './node-config.js';

const demoSeed = fileURLToPath(new URL('../../seed/demo.json', import.meta.url));

async function main() {
  const config = readNodeConfig(process.env);
  // The port is taken first, so that a port in use fails at once; requests wait for the app.
  let appReady!: (app: ReturnType<typeof createApp>) => void;
  const ready = new Promise<ReturnType<typeof createApp>>((resolve) => (appReady = resolve));
  const server = await listen(config.PORT, async (request, env) => (await ready).fetch(request, env));
  const secrets = await loadOrCreateLocalSecrets(config.DATA_DIR);
  const database = await openPgliteDatabase(join(config.DATA_DIR, 'pgdata'));
  const services = embeddedServices({
    database,
    config: {
      tokenSecret: new TextEncoder().encode(config.TOKEN_SECRET ?? secrets.token_secret),
      adminToken: config.ADMIN_TOKEN ?? secrets.admin_token,
      baseUrl: config.BASE_URL,
      keyEnvironment: 'test',
    },
    clientIp: (c) => getConnInfo(c).remote.address ?? 'unknown',
  });
  const seedFile = config.SEED_FILE ?? demoSeed;
  const seededKeys = await loadSeedFile(services, seedFile).catch((err: unknown) => {
    throw new Error(`Cannot load the seed file ${seedFile}: ${describeFailure(err)}`);
  });

  const app = createApp(services);
  app.route('/', devMailboxRoutes(services.mailbox));
  appReady(app);

  // Everything a user needs is printed before the `listening` line, so that whoever waits for that
  // line (a person, a script, a test) has the key, the token and the curl lines already.
  const greeting = await welcome(services, seededKeys, config.BASE_URL);
  console.log(`${greeting}\n\nE-signing API listening on ${config.BASE_URL} (data in ${config.DATA_DIR})`);

  let closing = false;
  const shutdown = () => {
    // A terminal signals the whole process group, and tsx relays the signal as well: stop once.
    if (closing) return;
    closing = true;
    server.close();
    services.inProcessQueue.close();
    void database.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

function listen(port: number, fetch: (request: Request, env: unknown) => Promise<Response>): Promise<ServerType> {
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
async function welcome(services: ReturnType<typeof embeddedServices>, keys: SeededKey[], baseUrl: string): Promise<string> {
  const lines = ['', `Admin token:  ${services.config.adminToken}`, `Dev mailbox:  ${baseUrl}/dev/mailbox`, `OpenAPI:      ${baseUrl}/v1/openapi.json`];
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
function describeFailure(err: unknown): string {
  if (err instanceof ApiError) {
    const issues = Array.isArray(err.details.issues) ? (err.details.issues as Issue[]) : [];
    return [err.message, ...issues.map((issue) => `  ${issue.path || '(top level)'}: ${issue.message}`)].join('\n');
  }
  return err instanceof Error ? err.message : String(err);
}

main().catch((err: unknown) => {
  console.error(describeFailure(err));
  process.exit(1);
});

