/**
 * The webhooks pages around one subscription's own page: the company's subscriptions, the form that
 * adds one, the page that shows a signing secret (its only showing: it is kept sealed and never
 * shown again), the confirmations of rotate and delete, and the refusal for a role that may not
 * manage webhooks. Every form carries its `form_token`.
 */
import { html } from 'hono/html';
import { type EventKind, eventKinds } from '../../domain/webhooks/event-catalog.js';
import type { Subscription } from '../../domain/webhooks/subscriptions.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { timeOf, timeText } from './envelope-format.js';
import { type Html, layout, noticePage, type Shell } from './layout.js';

export const DESCRIPTION_MAX = 500;

const framed = (shell: Shell): Shell => ({ ...shell, current: 'webhooks' });
export const formTokenField = (shell: Shell) => html`<input type="hidden" name="form_token" value="${shell.formToken}">`;
export const fieldError = (m: AppMessages, id: string, message: string) =>
  html`<p class="field-error" id="${id}"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${message}</p>`;

/** The subscription's state, and why when it is disabled. */
export const subscriptionState = (m: AppMessages, subscription: Subscription): Html =>
  subscription.status === 'active'
    ? html`<span class="badge badge-active">${m.text('webhooks.state.active')}</span>`
    : html`<span class="badge badge-disabled">${m.text('webhooks.state.disabled')}</span>${
        subscription.disabled_reason ? html`<br><span class="hint">${m.text('webhooks.disabledWhy', { reason: subscription.disabled_reason })}</span>` : ''
      }`;

export const eventList = (events: readonly string[]): Html => html`<ul class="scope-list">${events.map((event) => html`<li><code>${event}</code></li>`)}</ul>`;

export function webhookListPage(
  m: AppMessages,
  shell: Shell,
  options: { subscriptions: Subscription[]; total: number; mayManage: boolean; deleted: boolean },
): Html {
  const { subscriptions, mayManage } = options;
  return layout({
    m,
    title: m.text('webhooks.title'),
    shell: framed(shell),
    main: html`<section class="panel panel-wide" aria-labelledby="webhooks-title">
${options.deleted ? html`<p class="status" role="status">${m.text('webhooks.deletedNotice')}</p>` : ''}
<h1 id="webhooks-title">${m.text('webhooks.title')}</h1>
<p>${m.text('webhooks.lead')}</p>
${mayManage ? html`<p><a class="button-link" href="/app/webhooks/new">${m.text('webhooks.create')}</a></p>` : ''}
${
  subscriptions.length === 0
    ? html`<p>${m.text('webhooks.none')}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="webhooks-caption" tabindex="0">
<table class="list list-stacking">
<caption id="webhooks-caption" class="visually-hidden">${m.text('webhooks.caption')}</caption>
<thead><tr><th scope="col">${m.text('webhooks.url')}</th><th scope="col">${m.text('webhooks.events')}</th><th scope="col">${m.text('webhooks.state')}</th><th scope="col">${m.text('webhooks.created')}</th></tr></thead>
<tbody>
${subscriptions.map(
  (subscription) => html`<tr>
<th scope="row"><a class="endpoint" href="/app/webhooks/${subscription.id}">${subscription.url}</a>${subscription.description ? html`<br><span class="hint">${subscription.description}</span>` : ''}</th>
<td data-label="${m.text('webhooks.events')}">${eventList(subscription.events)}</td>
<td data-label="${m.text('webhooks.state')}"><span>${subscriptionState(m, subscription)}</span></td>
<td data-label="${m.text('webhooks.created')}">${timeOf(new Date(subscription.created_at))}</td>
</tr>`,
)}
</tbody>
</table>
</div>`
}
${options.total > subscriptions.length ? html`<p class="hint">${m.text('webhooks.more', { count: subscriptions.length })}</p>` : ''}
</section>`,
  });
}

export type NewWebhookForm = { url: string; events: readonly string[]; description: string };
/** A field's mistake, as the catalogue says it; `form` is a mistake of the whole form (the company's limit). */
export type NewWebhookErrors = { url?: string; events?: string; description?: string; form?: string };

export function newWebhookPage(m: AppMessages, shell: Shell, options: { form?: NewWebhookForm; errors?: NewWebhookErrors } = {}): Html {
  const form = options.form ?? { url: '', events: [], description: '' };
  const errors = options.errors ?? {};
  const first = errors.url ? 'url' : errors.events ? 'events' : errors.description ? 'description' : undefined;
  return layout({
    m,
    title: m.text('newWebhook.title'),
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="new-webhook-title">
<h1 id="new-webhook-title">${m.text('newWebhook.title')}</h1>
<p>${m.text('newWebhook.lead')}</p>
${errors.form ? html`<p class="field-error" role="alert"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${errors.form}</p>` : ''}
<form method="post" action="/app/webhooks" novalidate>
${formTokenField(shell)}
<div class="field${errors.url ? ' field-invalid' : ''}">
<label for="url">${m.text('newWebhook.url')}</label>
<p class="hint" id="url-hint">${m.text('newWebhook.urlHint')}</p>
${errors.url ? fieldError(m, 'url-error', errors.url) : ''}
<input id="url" name="url" type="url" required maxlength="2000" autocomplete="off" spellcheck="false" value="${form.url}" aria-describedby="${errors.url ? 'url-error ' : ''}url-hint"${errors.url ? html` aria-invalid="true"` : ''}${first === 'url' ? html` autofocus` : ''}>
</div>
<fieldset class="field${errors.events ? ' field-invalid' : ''}"${errors.events ? html` aria-describedby="events-error"` : ''}>
<legend>${m.text('newWebhook.events')}</legend>
<p class="hint">${m.text('newWebhook.eventsHint')}</p>
${errors.events ? fieldError(m, 'events-error', errors.events) : ''}
${eventKinds.map(
  (
    kind: EventKind,
    index,
  ) => html`<div class="check"><input type="checkbox" id="event-${index}" name="event" value="${kind}"${form.events.includes(kind) ? ' checked' : ''}${first === 'events' && index === 0 ? html` autofocus` : ''}>
<label for="event-${index}"><code>${kind}</code> <span class="hint">${m.text(`webhookEvent.${kind}`)}</span></label></div>`,
)}
</fieldset>
<div class="field${errors.description ? ' field-invalid' : ''}">
<label for="description">${m.text('newWebhook.description')}</label>
<p class="hint" id="description-hint">${m.text('newWebhook.descriptionHint')}</p>
${errors.description ? fieldError(m, 'description-error', errors.description) : ''}
<input id="description" name="description" type="text" maxlength="${DESCRIPTION_MAX}" autocomplete="off" value="${form.description}" aria-describedby="${errors.description ? 'description-error ' : ''}description-hint"${errors.description ? html` aria-invalid="true"` : ''}${first === 'description' ? html` autofocus` : ''}>
</div>
<div class="actions">
<button type="submit">${m.text('newWebhook.submit')}</button>
<a href="/app/webhooks">${m.text('webhooks.cancel')}</a>
</div>
</form>
</section>`,
  });
}

/**
 * The one page that ever shows a signing secret: after the subscription is made, or after a
 * rotation (then with the time the previous secret stops signing). The copy button is the API keys
 * pages' script, which copies the field its button names.
 */
export function secretShownPage(m: AppMessages, shell: Shell, options: { id: string; url: string; secret: string; previousUntil?: Date | undefined }): Html {
  const title = m.text(options.previousUntil ? 'secretShown.rotatedTitle' : 'secretShown.title');
  return layout({
    m,
    title,
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="secret-shown-title">
<h1 id="secret-shown-title">${title}</h1>
<p class="lead">${m.html('secretShown.lead', { url: options.url })}</p>
${options.previousUntil ? html`<p>${m.text('secretShown.previous', { until: timeText(options.previousUntil) })}</p>` : ''}
<div class="field">
<label for="new-secret">${m.text('secretShown.secret')}</label>
<input id="new-secret" class="key-value" type="text" readonly value="${options.secret}" spellcheck="false" autocomplete="off" aria-describedby="secret-once">
</div>
<p class="copy-row"><button type="button" id="copy-key" data-copies="new-secret" hidden>${m.text('secretShown.copy')}</button> <span id="copy-status" role="status" data-copied="${m.text('secretShown.copied')}" data-failed="${m.text('secretShown.copyFailed')}"></span></p>
<p class="key-warning" id="secret-once">${m.text('secretShown.once')}</p>
<p><a href="/app/webhooks/${options.id}">${m.text('secretShown.done')}</a></p>
<script type="module" src="/static/app-keys.js"></script>
</section>`,
  });
}

/** The step before rotating the secret or deleting the subscription: what it does, and the button. */
export function confirmWebhookPage(m: AppMessages, shell: Shell, options: { subscription: Subscription; action: 'rotate' | 'delete' }): Html {
  const { subscription, action } = options;
  const title = m.text(`webhookConfirm.${action}.title`);
  return layout({
    m,
    title,
    shell: framed(shell),
    main: html`<section class="panel" aria-labelledby="confirm-title">
<h1 id="confirm-title">${title}</h1>
<p class="lead">${m.html(`webhookConfirm.${action}.lead`, { url: subscription.url })}</p>
<form method="post" action="/app/webhooks/${subscription.id}/${action}">
${formTokenField(shell)}
<div class="actions">
<button type="submit"${action === 'delete' ? html` class="button-danger"` : ''}>${m.text(`webhookConfirm.${action}.submit`)}</button>
<a href="/app/webhooks/${subscription.id}">${m.text('webhooks.cancel')}</a>
</div>
</form>
</section>`,
  });
}

export const webhooksRefusedPage = (m: AppMessages, shell: Shell): Html =>
  noticePage({ m, title: m.text('webhooks.refused.title'), lead: m.text('webhooks.refused.lead'), tone: 'warning', shell });
