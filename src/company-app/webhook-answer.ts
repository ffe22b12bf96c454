/**
 * A subscription's page as an answer: shown by its GET, and again by an action's post with what
 * came of it (the test's result, a refusal with its reason, the replay form's mistake) and the
 * post's status. The subscription and the page of its deliveries are read in one wave, both
 * scoped to the session's company: another company's subscription answers as an unknown one.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { can } from '../domain/app-access/roles.js';
import { listDeliveries } from '../domain/webhooks/deliveries.js';
import { liveSubscription, toSubscription } from '../domain/webhooks/subscriptions.js';
import { DomainError } from '../errors.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { notFoundPage } from './html/notice-pages.js';
import { type ReplayForm, type WebhookNotice, webhookPage } from './html/webhook-page.js';
import { appMessages } from './messages.js';
import { companyReads } from './page-access.js';

export const DELIVERIES_PER_PAGE = 25;
/** Past this page the list is better replayed than paged: the bound keeps OFFSET cheap. */
export const DELIVERY_PAGE_MAX = 1000;

/** The `page` of the address: 1 when absent, null when it cannot be one. */
export function deliveryPageOf(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return 1;
  return /^\d{1,4}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= DELIVERY_PAGE_MAX ? Number(raw) : null;
}

export async function showWebhook(
  c: Context<CompanyAppEnv>,
  shell: Shell,
  id: string,
  options: { page?: number; notice?: WebhookNotice | undefined; replay?: ReplayForm; status?: ContentfulStatusCode } = {},
): Promise<Response> {
  const ctx = companyReads(c, shell);
  const m = appMessages();
  try {
    const [row, deliveries] = await Promise.all([
      liveSubscription(ctx.services, ctx.companyId, id),
      listDeliveries(ctx, { id, page: options.page ?? 1, perPage: DELIVERIES_PER_PAGE }),
    ]);
    const mayManage = can(shell.session.user.role, 'webhooks:manage');
    return c.html(
      webhookPage(m, shell, { subscription: toSubscription(row), deliveries, mayManage, notice: options.notice, replay: options.replay }),
      options.status ?? 200,
    );
  } catch (err) {
    if (err instanceof DomainError && err.code === 'webhook_not_found') return webhookNotFoundAnswer(c);
    throw err;
  }
}

/** The application's 404 page: another company's subscription, or delivery, answers as an unknown one. */
export const webhookNotFoundAnswer = (c: Context<CompanyAppEnv>) => c.html(notFoundPage(appMessages()), 404);
