/**
 * POST /app/webhooks/{id}/rotate: a new signing secret, shown on this answer only; the replaced one
 * still signs beside it until the time the domain answers (24 hours), then no more.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { secretShownPage } from '../../src/company-app/html/webhook-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { webhookNotFoundAnswer } from '../../src/company-app/webhook-answer.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';
import { rotateSecret } from '../../src/domain/webhooks/secret-rotation.js';
import { liveSubscription } from '../../src/domain/webhooks/subscriptions.js';
import { DomainError } from '../../src/errors.js';
import { companyReads, companyChanges } from '../../src/company-app/page-access.js';

export async function rotateWebhookSecret(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksManageShell(c);
  if (shell instanceof Response) return shell;
  const { services, companyId } = companyReads(c, shell);
  try {
    // The URL, for the page to name: of the session's company only, as the rotation is.
    const row = await liveSubscription(services, companyId, c.req.param('id') ?? '');
    const rotated = await rotateSecret(companyChanges(c, shell), { id: row.id });
    return c.html(
      secretShownPage(appMessages(), shell, { id: row.id, url: row.url, secret: rotated.secret, previousUntil: new Date(rotated.previous_secret_expires_at) }),
    );
  } catch (err) {
    if (err instanceof DomainError && err.code === 'webhook_not_found') return webhookNotFoundAnswer(c);
    throw err;
  }
}
