/**
 * The Worker: the same app as on Node, over the production adapters. The configuration is read at
 * start-up, so a Worker with a missing or malformed variable fails to start, naming it, instead of
 * answering 500 to every request.
 *
 * The app itself is built on the first request instead: evaluating its modules (route schemas, the
 * database schema, the Neon driver, the OpenAPI routes) took about two thirds of the start-up CPU
 * time, over its 50 ms budget (`npm run size`). The first request of each isolate pays for it.
 * `import()` is what defers that work: the bundler wraps each module reached only this way in a
 * function that runs on the first call.
 */
import { env } from 'cloudflare:workers';
import { readWorkerConfig } from './worker-config.js';

const config = readWorkerConfig(env);

async function buildApp() {
  const [{ Receiver }, { productionServices }, { createApp }, { queueCallbackRoutes }, { housekeeping }] = await Promise.all([
    import('@upstash/qstash'),
    import('../adapters/production/production-services.js'),
    import('../app.js'),
    import('../http/queue-callback.js'),
    import('../outbox/housekeeping.js'),
  ]);
  const services = productionServices(config);
  const app = createApp(services);
  app.route(
    '/',
    queueCallbackRoutes(new Receiver({ currentSigningKey: config.QSTASH_CURRENT_SIGNING_KEY, nextSigningKey: config.QSTASH_NEXT_SIGNING_KEY })),
  );
  return { app, housekeeping: () => housekeeping(services) };
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
    return (await ready()).app.fetch(...args);
  },
  /** The Cron Trigger: relays what requests that died left in the outbox (see housekeeping). */
  async scheduled(_controller: unknown, _env: unknown, ctx: { waitUntil(promise: Promise<unknown>): void }) {
    ctx.waitUntil(ready().then((worker) => worker.housekeeping()));
  },
};
