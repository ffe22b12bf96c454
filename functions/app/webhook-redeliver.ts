/**
 * POST /app/webhooks/{id}/deliveries/{delivery_id}/redeliver: the delivery's event again, as a new
 * delivery through the queue; 303 to the subscription's page, which says so. A delivery of another
 * subscription or company answers as an unknown one (404); one still being attempted 409, past the
 * company's redeliveries of the day 429, each with the page saying why.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { showWebhook, webhookNotFoundAnswer } from '../../src/company-app/webhook-answer.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';
import { redeliver } from '../../src/domain/webhooks/redeliver.js';
import { DomainError } from '../../src/errors.js';
import { companyChanges } from '../../src/company-app/page-access.js';

export async function redeliverDelivery(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksManageShell(c);
  if (shell instanceof Response) return shell;
  const id = c.req.param('id') ?? '';
  try {
    await redeliver(companyChanges(c, shell), { subscriptionId: id, deliveryId: c.req.param('deliveryId') ?? '' });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'webhook_not_found' || err.code === 'delivery_not_found') return webhookNotFoundAnswer(c);
    if (err.code === 'delivery_pending') return showWebhook(c, shell, id, { notice: { kind: 'pending' }, status: 409 });
    if (err.code === 'rate_limited') return showWebhook(c, shell, id, { notice: { kind: 'rateLimited', seconds: err.retryAfterSeconds ?? 60 }, status: 429 });
    throw err;
  }
  return c.redirect(`/app/webhooks/${encodeURIComponent(id)}?done=redelivered`, 303);
}
