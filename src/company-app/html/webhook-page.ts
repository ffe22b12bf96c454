/**
 * One webhook subscription (`/app/webhooks/{id}`): what it is, its deliveries' attempts newest first
 * with the receiver's answer to each, the pages before and after, and, for a role that may manage
 * webhooks, its actions: a test event, a replay since a time, a redelivery of a delivery, rotating
 * the secret and deleting the subscription.
 */
import { html } from 'hono/html';
import type { DeliveryAttempt } from '../../domain/webhooks/deliveries.js';
import type { Subscription } from '../../domain/webhooks/subscriptions.js';
import type { Page } from '../../domain/shared/pagination.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { timeOf } from './envelope-format.js';
import { type Html, layout, type Shell } from './layout.js';
import { eventList, fieldError, formTokenField, subscriptionState } from './webhook-pages.js';

export type WebhookNotice =
  | { kind: 'tested'; attempt: DeliveryAttempt }
  | { kind: 'redelivered' }
  | { kind: 'replayed'; count: number }
  | { kind: 'rateLimited'; seconds: number }
  | { kind: 'pending' }
  | { kind: 'replayRunning' }
  | { kind: 'pageInvalid' };

/** The replay form as it was posted, with its mistake. */
export type ReplayForm = { since: string; error?: string | undefined };

/** The receiver's answer to an attempt, in words: its status code, or why there was none. */
function answerOf(m: AppMessages, attempt: DeliveryAttempt): string {
  const parts = [attempt.status_code !== null ? m.text('webhook.status', { status: attempt.status_code }) : ''];
  if (attempt.error_type) parts.push(m.text(`webhook.error.${attempt.error_type}`));
  return parts.filter(Boolean).join(' · ') || m.text('webhook.noStatus');
}

function resultOf(m: AppMessages, attempt: DeliveryAttempt): Html {
  if (attempt.delivered) return html`<span class="badge badge-delivered">${m.text('webhook.result.delivered')}</span>`;
  if (attempt.status_code === null && attempt.error_type === null) return html`<span class="badge">${m.text('webhook.result.running')}</span>`;
  return html`<span class="badge badge-failed">${m.text('webhook.result.failed')}</span>`;
}

function noticeOf(m: AppMessages, notice: WebhookNotice): Html {
  const say = (text: string, alert = false) => html`<p class="status${alert ? ' status-warning' : ''}" role="${alert ? 'alert' : 'status'}">${text}</p>`;
  switch (notice.kind) {
    case 'tested': {
      const { attempt } = notice;
      if (attempt.delivered) return say(m.text('webhook.notice.tested', { status: attempt.status_code ?? 0, ms: attempt.duration_ms ?? 0 }));
      // The recorded message ends its own sentence; the notice's words end it once.
      const result = [answerOf(m, attempt), attempt.error?.replace(/\.$/, '')].filter(Boolean).join(': ');
      return say(m.text('webhook.notice.testFailed', { result }), true);
    }
    case 'redelivered':
      return say(m.text('webhook.notice.redelivered'));
    case 'replayed':
      return say(m.text('webhook.notice.replayed', { count: notice.count }));
    case 'rateLimited':
      return say(m.text('webhook.notice.rateLimited', { minutes: Math.ceil(notice.seconds / 60) }), true);
    case 'pending':
      return say(m.text('webhook.notice.pending'), true);
    case 'replayRunning':
      return say(m.text('webhook.notice.replayRunning'), true);
    case 'pageInvalid':
      return say(m.text('webhook.pageInvalid'), true);
  }
}

export function webhookPage(
  m: AppMessages,
  shell: Shell,
  options: {
    subscription: Subscription;
    deliveries: Page<DeliveryAttempt>;
    mayManage: boolean;
    notice?: WebhookNotice | undefined;
    replay?: ReplayForm | undefined;
  },
): Html {
  const { subscription: s, deliveries, mayManage } = options;
  return layout({
    m,
    title: m.text('webhook.title'),
    shell: { ...shell, current: 'webhooks' },
    main: html`<section class="panel panel-wide" aria-labelledby="webhook-title">
<p><a href="/app/webhooks">${m.text('webhooks.back')}</a></p>
${options.notice ? noticeOf(m, options.notice) : ''}
<h1 id="webhook-title" class="endpoint">${s.url}</h1>
<dl class="details">
${s.description ? html`<div><dt>${m.text('webhooks.description')}</dt><dd>${s.description}</dd></div>` : ''}
<div><dt>${m.text('webhooks.events')}</dt><dd>${eventList(s.events)}</dd></div>
<div><dt>${m.text('webhooks.state')}</dt><dd>${subscriptionState(m, s)}${s.status === 'disabled' ? html`<br><span class="hint">${m.text('webhooks.disabledHint')}</span>` : ''}</dd></div>
<div><dt>${m.text('webhooks.created')}</dt><dd>${timeOf(new Date(s.created_at))}</dd></div>
</dl>
${mayManage ? actions(m, shell, s, options.replay) : ''}
<h2 id="deliveries-title">${m.text('webhook.deliveries')}</h2>
${deliveryList(m, shell, s, deliveries, mayManage)}
</section>`,
  });
}

function actions(m: AppMessages, shell: Shell, s: Subscription, replay: ReplayForm | undefined): Html {
  return html`<h2>${m.text('webhook.actions')}</h2>
<div class="webhook-actions">
<form method="post" action="/app/webhooks/${s.id}/test">
${formTokenField(shell)}
<p class="hint" id="test-hint">${m.text('webhook.testHint')}</p>
<button type="submit" aria-describedby="test-hint">${m.text('webhook.test')}</button>
</form>
<form method="post" action="/app/webhooks/${s.id}/replay" novalidate>
${formTokenField(shell)}
<fieldset class="field${replay?.error ? ' field-invalid' : ''}">
<legend>${m.text('webhook.replay')}</legend>
<p class="hint" id="since-hint">${m.text('webhook.replayHint')}</p>
${replay?.error ? fieldError(m, 'since-error', replay.error) : ''}
<label for="since">${m.text('webhook.replaySince')}</label>
<input id="since" name="since" type="datetime-local" required value="${replay?.since ?? ''}" aria-describedby="${replay?.error ? 'since-error ' : ''}since-hint"${replay?.error ? html` aria-invalid="true" autofocus` : ''}>
<div class="actions"><button type="submit">${m.text('webhook.replaySubmit')}</button></div>
</fieldset>
</form>
<p class="actions"><a href="/app/webhooks/${s.id}/rotate">${m.text('webhook.rotate')}</a> <a href="/app/webhooks/${s.id}/delete">${m.text('webhook.delete')}</a></p>
</div>`;
}

function deliveryList(m: AppMessages, shell: Shell, s: Subscription, deliveries: Page<DeliveryAttempt>, mayManage: boolean): Html {
  const { page, total, total_pages } = deliveries.pagination;
  if (deliveries.data.length === 0) {
    return html`<p>${m.text(total > 0 ? 'webhook.deliveriesPastEnd' : 'webhook.deliveriesNone')}</p>
${total > 0 ? html`<p><a href="/app/webhooks/${s.id}">${m.text('webhook.deliveriesFirst')}</a></p>` : ''}`;
  }
  // Attempts come newest first: a delivery's first row on the page is its latest attempt, which carries the button.
  const seen = new Set<string>();
  return html`<p class="hint">${m.text('webhook.deliveriesCount', { total })}</p>
<div class="table-scroll" role="region" aria-labelledby="deliveries-caption" tabindex="0">
<table class="list list-stacking">
<caption id="deliveries-caption" class="visually-hidden">${m.text('webhook.deliveriesCaption', { page, pages: total_pages })}</caption>
<thead><tr>
<th scope="col">${m.text('webhook.column.event')}</th>
<th scope="col">${m.text('webhook.column.attempt')}</th>
<th scope="col">${m.text('webhook.column.time')}</th>
<th scope="col">${m.text('webhook.column.result')}</th>
<th scope="col">${m.text('webhook.column.answer')}</th>
<th scope="col">${m.text('webhook.column.duration')}</th>
${mayManage ? html`<th scope="col"><span class="visually-hidden">${m.text('webhook.actions')}</span></th>` : ''}
</tr></thead>
<tbody>
${deliveries.data.map((attempt) => {
  const latest = !seen.has(attempt.delivery_id);
  seen.add(attempt.delivery_id);
  return html`<tr>
<th scope="row"><code>${attempt.event_type}</code><br><span class="hint">${m.text(`webhook.origin.${attempt.origin}`)}</span><br><code class="event-id">${attempt.event_id}</code></th>
<td data-label="${m.text('webhook.column.attempt')}">${attempt.attempt}</td>
<td data-label="${m.text('webhook.column.time')}">${timeOf(new Date(attempt.created_at))}</td>
<td data-label="${m.text('webhook.column.result')}">${resultOf(m, attempt)}</td>
<td data-label="${m.text('webhook.column.answer')}"><span>${answerOf(m, attempt)}${attempt.error ? html`<br><span class="hint">${attempt.error}</span>` : ''}</span></td>
<td data-label="${m.text('webhook.column.duration')}">${attempt.duration_ms !== null ? m.text('webhook.ms', { ms: attempt.duration_ms }) : '–'}</td>
${
  mayManage
    ? html`<td>${
        latest
          ? html`<form method="post" action="/app/webhooks/${s.id}/deliveries/${attempt.delivery_id}/redeliver">${formTokenField(shell)}<button type="submit" class="button-quiet" aria-label="${m.text('webhook.redeliverNamed', { event: attempt.event_type, attempt: attempt.attempt })}">${m.text('webhook.redeliver')}</button></form>`
          : ''
      }</td>`
    : ''
}
</tr>`;
})}
</tbody>
</table>
</div>
${
  total_pages > 1
    ? html`<nav class="pager" aria-label="${m.text('webhook.pages')}">
${page > 1 ? html`<a href="/app/webhooks/${s.id}${page > 2 ? `?page=${page - 1}` : ''}" rel="prev">${m.text('webhook.previous')}</a>` : ''}
<span>${m.text('webhook.pageOf', { page, pages: total_pages })}</span>
${page < total_pages ? html`<a href="/app/webhooks/${s.id}?page=${page + 1}" rel="next">${m.text('webhook.next')}</a>` : ''}
</nav>`
    : ''
}`;
}
