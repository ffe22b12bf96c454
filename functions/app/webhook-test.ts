/**
 * POST /app/webhooks/{id}/test: a signed webhook.test event delivered now, once; the subscription's
 * page answers with its result (delivered, or the receiver's answer). Past the company's test
 * deliveries of the hour: 429 with the page saying when to try again.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { showWebhook, webhookNotFoundAnswer } from '../../src/company-app/webhook-answer.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';
import { sendTestEvent } from '../../src/domain/webhooks/deliveries.js';
import { DomainError } from '../../src/errors.js';
import { companyChanges } from '../../src/company-app/page-access.js';

export async function testWebhook(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksManageShell(c);
  if (shell instanceof Response) return shell;
  const id = c.req.param('id') ?? '';
  try {
    const attempt = await sendTestEvent(companyChanges(c, shell), { id });
    return showWebhook(c, shell, id, { notice: { kind: 'tested', attempt } });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'webhook_not_found') return webhookNotFoundAnswer(c);
    if (err.code === 'rate_limited') return showWebhook(c, shell, id, { notice: { kind: 'rateLimited', seconds: err.retryAfterSeconds ?? 60 }, status: 429 });
    throw err;
  }
}
