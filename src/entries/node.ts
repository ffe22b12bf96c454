/**
 * `npm start`: the service on Node with the embedded stack (PGlite and the documents' files in
 * DATA_DIR, in-process rate limiter, quota counter, queue and dev mailbox). Prints what a new user needs to make a call.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpBindings } from '@hono/node-server';
import { embeddedServices } from '../adapters/embedded/embedded-services.js';
import { FileDocumentStore } from '../adapters/embedded/file-document-store.js';
import { nodeHostResolver } from '../adapters/node/dns-resolver.js';
import { openPgliteDatabase } from '../adapters/embedded/pglite-database.js';
import { createApp } from '../app.js';
import { applicationRoute } from '../../functions/application-routes.js';
import { developmentPages, routes } from '../../functions/routes.js';
import { nodeExecutionContext } from '../http/execution-context.js';
import { jsonLineLog } from '../http/request-log.js';
import { runHousekeepingEvery } from '../outbox/housekeeping.js';
import { threadedPdfMaker } from '../pdf/threaded-pdf-maker.js';
import { loadSeedFile } from '../seed/load-seed.js';
import { loadOrCreateLocalSeal, loadOrCreateLocalSecrets } from './local-secrets.js';
import { readNodeConfig } from './node-config.js';
import { demoSeedPath, describeFailure, listen, welcome } from './startup-output.js';
import { isStaticPath, staticFiles } from './static-files.js';

const demoSeed = fileURLToPath(demoSeedPath);
const HOUSEKEEPING_INTERVAL_MS = 15_000;

async function main() {
  const config = readNodeConfig(process.env);
  // The port is taken first, so that a port in use fails at once; requests wait for the app.
  let appReady!: (app: ReturnType<typeof createApp>) => void;
  const ready = new Promise<ReturnType<typeof createApp>>((resolve) => (appReady = resolve));
  // The signing page's static files come before the app's routes, as Workers' static assets do.
  const statics = staticFiles();
  const server = await listen(config.PORT, async (request, env) =>
    isStaticPath(request) ? statics.fetch(request, env) : (await ready).fetch(request, env, nodeExecutionContext),
  );
  const secrets = await loadOrCreateLocalSecrets(config.DATA_DIR);
  const seal = await loadOrCreateLocalSeal(config.DATA_DIR);
  const database = await openPgliteDatabase(join(config.DATA_DIR, 'pgdata'));
  // Beside the database, so that the documents it names survive a restart with it.
  const documents = new FileDocumentStore(join(config.DATA_DIR, 'documents'));
  // In a thread under a deadline: a document whose work never ends fails its job, and every route keeps answering.
  const pdf = threadedPdfMaker({ seal, timestampUrl: config.TSA_URL }, documents, {
    deadlineMs: config.PDF_DEADLINE_SECONDS * 1000,
    documentsFolder: join(config.DATA_DIR, 'documents'),
  });
  const services = embeddedServices({
    database,
    config: {
      tokenSecret: new TextEncoder().encode(config.TOKEN_SECRET ?? secrets.token_secret),
      adminToken: config.ADMIN_TOKEN ?? secrets.admin_token,
      baseUrl: config.BASE_URL,
      keyEnvironment: 'test',
      // The embedded server is for development: webhooks may go to a receiver on this machine.
      allowPrivateWebhookTargets: true,
      seal,
      timestampUrl: config.TSA_URL,
    },
    // The socket the request came in on, which @hono/node-server hands over as the bindings.
    clientIp: (_request, bindings) => (bindings as HttpBindings).incoming.socket.remoteAddress ?? 'unknown',
    pdf,
    documents,
  });
  // Node can resolve webhook hosts, so a name pointing at a private address is refused too.
  services.hostResolver = nodeHostResolver;
  if (config.LOG_REQUESTS === 'true') services.requestLog = jsonLineLog;
  const seedFile = config.SEED_FILE ?? demoSeed;
  // Generated documents are made in the PDF thread: the process never loads pdf-lib or a font.
  const seededKeys = await loadSeedFile(services, seedFile, pdf.generateDocument).catch((err: unknown) => {
    throw new Error(`Cannot load the seed file ${seedFile}: ${describeFailure(err)}`);
  });

  // One process: the company application is mounted here with the rest, not a Worker of its own.
  const app = createApp(services, [...routes, applicationRoute, developmentPages(services)]);
  appReady(app);
  // What a request that died left in the outbox is relayed within a quarter of a minute.
  const stopHousekeeping = runHousekeepingEvery(services, HOUSEKEEPING_INTERVAL_MS);

  // Everything a user needs is printed before the `listening` line, so that whoever waits for that
  // line (a person, a script, a test) has the key, the token and the curl lines already.
  const greeting = await welcome(services, seededKeys, config.BASE_URL, `${config.BASE_URL}/dev/webhooks`);
  console.log(`${greeting}\n\nE-signing API listening on ${config.BASE_URL} (data in ${config.DATA_DIR})`);

  let closing = false;
  const shutdown = () => {
    // A terminal signals the whole process group, and tsx relays the signal as well: stop once.
    if (closing) return;
    closing = true;
    server.close();
    stopHousekeeping();
    void services.inProcessQueue
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error(describeFailure(err));
  process.exit(1);
});
