/**
 * The Worker: the same app as on Node, over the production adapters. The configuration is read at
 * start-up, so a Worker with a missing or malformed variable fails to start, naming it, instead of
 * answering 500 to every request.
 *
 * The app itself is built on the first request instead, and builds only its routing shell: each
 * endpoint, the signing pages and the queue callbacks are evaluated on their own first request
 * (src/app.ts). `import()` is what defers that work: the bundler wraps each module reached only
 * this way in a function that runs on the first call. The PDF code is not in this Worker at all
 * (workerd compiles every module of a Worker when it starts): the PDF Worker does that work. Nor
 * is the company application's: `/app` is forwarded to its Worker (app-worker.ts).
 */
import { env } from 'cloudflare:workers';
import { boundPdfMaker } from '../adapters/production/bound-pdf-maker.js';
import { applicationService, isApplicationPath } from './application-binding.js';
import { documentsBucket } from './documents-binding.js';
import { readWorkerConfig } from './worker-config.js';

const config = readWorkerConfig(env);
// The PDF work is the PDF Worker's (pdf-worker.ts), reached through the `PDF` service binding.
const pdf = boundPdfMaker(env.PDF);
// Checked at start, as the variables are: a Worker deployed without its bucket fails to start, saying so.
const bucket = documentsBucket(env, 'The API Worker');
// The company application (`/app`) is a Worker of its own (app-worker.ts), reached through `APP`.
const application = applicationService(env);

async function buildApp() {
  const [{ productionServices }, { R2DocumentStore }, { createApp }, { queueCallbacks, routes }, { jsonLineLog }] = await Promise.all([
    import('../adapters/production/production-services.js'),
    import('../adapters/production/r2-document-store.js'),
    import('../app.js'),
    import('../../functions/routes.js'),
    import('../http/request-log.js'),
  ]);
  const services = productionServices(config, pdf, new R2DocumentStore(bucket));
  // Workers Logs keeps what the Worker writes to the console ([observability] in wrangler.toml).
  if (config.LOG_REQUESTS === 'true') services.requestLog = jsonLineLog;
  const app = createApp(services, [...routes, queueCallbacks({ current: config.QSTASH_CURRENT_SIGNING_KEY, next: config.QSTASH_NEXT_SIGNING_KEY })]);
  const housekeeping = async () => (await import('../outbox/housekeeping.js')).housekeeping(services);
  return { app, housekeeping };
}

type Built = Awaited<ReturnType<typeof buildApp>>;
// One build per isolate, shared by the requests that arrive while it runs.
let built: Promise<Built> | undefined;

function ready(): Promise<Built> {
  // A build that failed (a module that could not load) is tried again by the next request.
  built ??= buildApp().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}

export default {
  async fetch(...args: Parameters<Built['app']['fetch']>) {
    // Forwarded as it came (method, headers, body, the caller's address): the application answers it whole.
    if (isApplicationPath(args[0])) return application.fetch(args[0]);
    return (await ready()).app.fetch(...args);
  },
  /** The Cron Trigger: relays what requests that died left in the outbox (see housekeeping). */
  async scheduled(_controller: unknown, _env: unknown, ctx: { waitUntil(promise: Promise<unknown>): void }) {
    ctx.waitUntil(ready().then((worker) => worker.housekeeping()));
  },
};
