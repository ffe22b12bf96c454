/** GET /app/webhooks/{id}: one subscription of the company and a page of its deliveries; another company's, or none, the 404 page. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { deliveryPageOf, showWebhook } from '../../src/company-app/webhook-answer.js';
import { webhooksReadShell } from '../../src/company-app/webhooks-access.js';

export async function showWebhookPage(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksReadShell(c);
  if (shell instanceof Response) return shell;
  const id = c.req.param('id') ?? '';
  const page = deliveryPageOf(c.req.query('page'));
  if (page === null) return showWebhook(c, shell, id, { notice: { kind: 'pageInvalid' }, status: 400 });
  return showWebhook(c, shell, id, { page, ...(c.req.query('done') === 'redelivered' ? { notice: { kind: 'redelivered' } } : {}) });
}
