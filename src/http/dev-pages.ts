/**
 * The development pages of `npm start`, under `/dev`: the mailbox, the text messages, the webhook
 * inbox and the embedding example. Nothing of them exists in a deployment: only the Node entry
 * adds them to the routing table.
 */
import { Hono } from 'hono';
import type { EmbeddedServices } from '../adapters/embedded/embedded-services.js';
import type { AppEnv } from './app-env.js';
import { devEmbedExampleRoutes } from './dev-embed-example.js';
import { devMailboxRoutes } from './dev-mailbox.js';
import { devSmsRoutes } from './dev-sms.js';
import { devWebhookRoutes } from './dev-webhooks.js';

export function devPages(services: EmbeddedServices): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .route('/', devMailboxRoutes(services.mailbox))
    .route('/', devSmsRoutes(services.smsBox))
    .route('/', devWebhookRoutes(services))
    .route('/', devEmbedExampleRoutes());
}
