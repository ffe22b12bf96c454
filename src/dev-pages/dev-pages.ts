/**
 * The development pages of `npm start`, under `/dev`: the mailbox, the text messages, the webhook
 * inbox and the embedding example. Nothing of them exists in a deployment: only the Node entry
 * adds them to the routing table.
 */
import { Hono } from 'hono';
import type { EmbeddedServices } from '../adapters/embedded/embedded-services.js';
import type { AppEnv } from '../http/app-env.js';
import { devEmbedExampleRoutes } from './embed-example-page.js';
import { devMailboxRoutes } from './mailbox-page.js';
import { devSmsRoutes } from './sms-page.js';
import { devWebhookRoutes } from './webhook-inbox-page.js';

export function devPages(services: EmbeddedServices): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .route('/', devMailboxRoutes(services.mailbox))
    .route('/', devSmsRoutes(services.smsBox))
    .route('/', devWebhookRoutes(services))
    .route('/', devEmbedExampleRoutes());
}
