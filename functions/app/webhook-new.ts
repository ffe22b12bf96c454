/** GET /app/webhooks/new: the form that adds a webhook subscription. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { newWebhookPage } from '../../src/company-app/html/webhook-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';

export async function showNewWebhook(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksManageShell(c);
  if (shell instanceof Response) return shell;
  return c.html(newWebhookPage(appMessages(), shell));
}
