/**
 * The company application's Worker (wrangler.app.toml): `/app` and its pages, apart from the API
 * Worker so that the application's code (its pages, their catalogue and templates) is neither in
 * the API Worker's bundle nor compiled with every API isolate. It has no public address: the API
 * Worker forwards every `/app` request to it, unchanged, through its `APP` service binding.
 *
 * It runs the same app over the same production adapters, configuration and bindings as the API
 * Worker (the database, limits, queue, mail, the documents' bucket and the PDF Worker, whose page
 * sizes a template's upload reads). The configuration is read at start-up, so a missing or
 * malformed variable stops it, named; the app is built on the first request.
 */
import { env } from 'cloudflare:workers';
import { boundPdfMaker } from '../adapters/production/bound-pdf-maker.js';
import { documentsBucket } from './documents-binding.js';
import { readWorkerConfig } from './worker-config.js';

const config = readWorkerConfig(env);
const pdf = boundPdfMaker(env.PDF);
const bucket = documentsBucket(env, 'The application Worker');

async function buildApp() {
  const [{ productionServices }, { R2DocumentStore }, { createApp }, { applicationRoute }, { jsonLineLog }] = await Promise.all([
    import('../adapters/production/production-services.js'),
    import('../adapters/production/r2-document-store.js'),
    import('../app.js'),
    import('../../functions/application-routes.js'),
    import('../http/request-log.js'),
  ]);
  const services = productionServices(config, pdf, new R2DocumentStore(bucket));
  if (config.LOG_REQUESTS === 'true') services.requestLog = jsonLineLog;
  // The application alone: the outbox a request leaves is relayed by the API Worker's Cron Trigger.
  return createApp(services, [applicationRoute]);
}

// One build per isolate, shared by the requests that arrive while it runs; a failed one is tried again.
let built: ReturnType<typeof buildApp> | undefined;

export default {
  async fetch(...args: Parameters<Awaited<ReturnType<typeof buildApp>>['fetch']>) {
    built ??= buildApp().catch((err: unknown) => {
      built = undefined;
      throw err;
    });
    return (await built).fetch(...args);
  },
};
