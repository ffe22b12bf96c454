/** GET /app/webhooks: the company's webhook subscriptions, for every role; the button to add one for those who may. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { webhookListPage } from '../../src/company-app/html/webhook-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { webhooksReadShell } from '../../src/company-app/webhooks-access.js';
import { can } from '../../src/domain/app-access/roles.js';
import { listSubscriptions } from '../../src/domain/webhooks/subscriptions.js';
import { companyReads } from '../../src/company-app/page-access.js';

/** More than a company may have (a company over the bound from before keeps its own): one page holds them all. */
const SHOWN = 100;

export async function showWebhooks(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksReadShell(c);
  if (shell instanceof Response) return shell;
  const page = await listSubscriptions(companyReads(c, shell), { page: 1, perPage: SHOWN });
  return c.html(
    webhookListPage(appMessages(), shell, {
      subscriptions: page.data,
      total: page.pagination.total,
      mayManage: can(shell.session.user.role, 'webhooks:manage'),
      deleted: c.req.query('done') === 'deleted',
    }),
  );
}
