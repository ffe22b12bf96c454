/** The webhooks pages of the application, their paths relative to `/app` (functions/routes.ts mounts them). */
import type { AppPageRoute } from '../../src/company-app/company-app.js';
import { confirmDeleteWebhook, confirmRotateWebhook } from './webhook-confirm.js';
import { createWebhook } from './webhook-create.js';
import { deleteWebhook } from './webhook-delete.js';
import { showWebhooks } from './webhook-list.js';
import { showNewWebhook } from './webhook-new.js';
import { redeliverDelivery } from './webhook-redeliver.js';
import { replayWebhook } from './webhook-replay.js';
import { rotateWebhookSecret } from './webhook-rotate.js';
import { showWebhookPage } from './webhook-show.js';
import { testWebhook } from './webhook-test.js';

export const webhookRoutes: AppPageRoute[] = [
  ['/webhooks', 'GET', showWebhooks],
  ['/webhooks', 'POST', createWebhook],
  ['/webhooks/new', 'GET', showNewWebhook],
  ['/webhooks/:id', 'GET', showWebhookPage],
  ['/webhooks/:id/test', 'POST', testWebhook],
  ['/webhooks/:id/replay', 'POST', replayWebhook],
  ['/webhooks/:id/deliveries/:deliveryId/redeliver', 'POST', redeliverDelivery],
  ['/webhooks/:id/rotate', 'GET', confirmRotateWebhook],
  ['/webhooks/:id/rotate', 'POST', rotateWebhookSecret],
  ['/webhooks/:id/delete', 'GET', confirmDeleteWebhook],
  ['/webhooks/:id/delete', 'POST', deleteWebhook],
];
