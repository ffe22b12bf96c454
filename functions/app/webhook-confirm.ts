/**
 * GET /app/webhooks/{id}/rotate and /app/webhooks/{id}/delete: the confirmation before either, a
 * page with one button, so that it works without script. Another company's subscription is not found (404).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { confirmWebhookPage } from '../../src/company-app/html/webhook-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { webhookNotFoundAnswer } from '../../src/company-app/webhook-answer.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';
import { liveSubscription, toSubscription } from '../../src/domain/webhooks/subscriptions.js';
import { DomainError } from '../../src/errors.js';
import { companyReads } from '../../src/company-app/page-access.js';

const confirm = (action: 'rotate' | 'delete') =>
  async function confirmWebhookAction(c: Context<CompanyAppEnv>): Promise<Response> {
    const shell = await webhooksManageShell(c);
    if (shell instanceof Response) return shell;
    const { services, companyId } = companyReads(c, shell);
    try {
      const row = await liveSubscription(services, companyId, c.req.param('id') ?? '');
      return c.html(confirmWebhookPage(appMessages(), shell, { subscription: toSubscription(row), action }));
    } catch (err) {
      if (err instanceof DomainError && err.code === 'webhook_not_found') return webhookNotFoundAnswer(c);
      throw err;
    }
  };

export const confirmRotateWebhook = confirm('rotate');
export const confirmDeleteWebhook = confirm('delete');
