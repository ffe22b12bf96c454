/**
 * POST /app/webhooks/{id}/delete: nothing more is delivered to the subscription, retries of earlier
 * events included; 303 to the list, which says so. One deleted already, another company's or an
 * unknown one answers as not found (404).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { webhookNotFoundAnswer } from '../../src/company-app/webhook-answer.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';
import { unsubscribe } from '../../src/domain/webhooks/subscriptions.js';
import { DomainError } from '../../src/errors.js';
import { companyChanges } from '../../src/company-app/page-access.js';

export async function deleteWebhook(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksManageShell(c);
  if (shell instanceof Response) return shell;
  try {
    await unsubscribe(companyChanges(c, shell), { id: c.req.param('id') ?? '' });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'webhook_not_found') return webhookNotFoundAnswer(c);
    throw err;
  }
  return c.redirect('/app/webhooks?done=deleted', 303);
}
