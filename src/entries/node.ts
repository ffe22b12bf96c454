/**
 * `npm start`: the service on Node with the embedded stack (PGlite in DATA_DIR, in-process rate
 * limiter, quota counter, queue and dev mailbox). Prints what a new user needs to make a call.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { embeddedServices } from '../adapters/embedded/embedded-services.js';
import { openPgliteDatabase } from '../adapters/embedded/pglite-database.js';
import { createApp } from '../app.js';
import { exchangeApiKey } from '../domain/auth/exchange-api-key.js';
import { devMailboxRoutes } from '../http/dev-mailbox.js';
import { type SeededKey, loadSeedFile } from '../seed/load-seed.js';
import { loadOrCreateLocalSecrets } from './local-secrets.js';
import { readNodeConfig } from './node-config.js';

const demoSeed = fileURLToPath(new URL('../../seed/demo.json', import.meta.url));

async function main() {
  const config = readNodeConfig(process.env);
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
  const seededKeys = await loadSeedFile(services, config.SEED_FILE ?? demoSeed);

  const app = createApp(services);
  app.route('/', devMailboxRoutes(services.mailbox));

  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: config.PORT }, async () => {
    console.log(`E-signing API listening on ${config.BASE_URL} (data in ${config.DATA_DIR})`);
    console.log(await welcome(services, seededKeys, config.BASE_URL));
  });

  const shutdown = () => {
    server.close();
    services.inProcessQueue.close();
    void database.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** A key that works, the admin token, and curl lines that work as printed. */
async function welcome(services: ReturnType<typeof embeddedServices>, keys: SeededKey[], baseUrl: string): Promise<string> {
  const lines = ['', `Admin token:  ${services.config.adminToken}`, `Dev mailbox:  ${baseUrl}/dev/mailbox`, `OpenAPI:      ${baseUrl}/v1/openapi.json`];
  const key = keys.find((candidate) => candidate.scopes.includes('templates:read') && candidate.scopes.length >= 6) ?? keys[0];
  if (!key) return lines.join('\n');
  try {
    const token = await exchangeApiKey(services, key.key);
    lines.push(
      `API key:      ${key.key}  (${key.companyName}, owner ${key.owner})`,
      '',
      'Exchange the key for a one-hour access token:',
      `  curl -s -X POST ${baseUrl}/v1/auth/token -H 'content-type: application/json' -d '{"api_key":"${key.key}"}'`,
      '',
      'List templates with a token made for you now (valid one hour):',
      `  curl -s ${baseUrl}/v1/templates -H 'authorization: Bearer ${token.access_token}'`,
    );
  } catch {
    lines.push(`The seeded key ${key.id} no longer works (rotated or revoked); create one with the admin API.`);
  }
  return lines.join('\n');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

