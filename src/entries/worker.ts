/**
 * The Worker: the same app as on Node, over the production adapters. The configuration is read at
 * start-up, so a Worker with a missing or malformed variable fails to start, naming it, instead of
 * answering 500 to every request.
 */
import { Receiver } from '@upstash/qstash';
import { env } from 'cloudflare:workers';
import { productionServices } from '../adapters/production/production-services.js';
import { createApp } from '../app.js';
import { queueCallbackRoutes } from '../http/queue-callback.js';
import { readWorkerConfig } from './worker-config.js';

const config = readWorkerConfig(env);
const app = createApp(productionServices(config));
app.route(
  '/',
  queueCallbackRoutes(new Receiver({ currentSigningKey: config.QSTASH_CURRENT_SIGNING_KEY, nextSigningKey: config.QSTASH_NEXT_SIGNING_KEY })),
);

export default { fetch: app.fetch };
