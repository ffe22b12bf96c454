/**
 * POST /app/webhooks: subscribes the URL to the events ticked, with the domain's rules (the URL's
 * checks, one subscription per endpoint, the company's limit), and answers the one page that shows
 * the signing secret. A form with a mistake is shown again (422) with each field's message, nothing made.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { DESCRIPTION_MAX, type NewWebhookErrors, type NewWebhookForm, newWebhookPage, secretShownPage } from '../../src/company-app/html/webhook-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';
import { singleLineText } from '../../src/domain/shared/text-fields.js';
import { type EventKind, eventKinds } from '../../src/domain/webhooks/event-catalog.js';
import { subscribe } from '../../src/domain/webhooks/subscriptions.js';
import { SUBSCRIPTIONS_PER_COMPANY } from '../../src/domain/webhooks/webhook-bounds.js';
import { DomainError, type Issue } from '../../src/errors.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { companyChanges } from '../../src/company-app/page-access.js';

const descriptionRule = singleLineText(DESCRIPTION_MAX);
const isEventKind = (value: string): value is EventKind => (eventKinds as readonly string[]).includes(value);

export async function createWebhook(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksManageShell(c);
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const entries = (await readForm(c)) ?? [];
  const form: NewWebhookForm = {
    url: singleValue(entries, 'url')?.trim() ?? '',
    events: entries.filter(([field]) => field === 'event').map(([, value]) => (typeof value === 'string' ? value : '')),
    description: singleValue(entries, 'description')?.trim() ?? '',
  };
  const description = descriptionRule.safeParse(form.description);
  const errors: NewWebhookErrors = {
    ...(form.url === '' ? { url: m.text('newWebhook.urlMissing') } : {}),
    ...(form.events.length > 0 && form.events.every(isEventKind) ? {} : { events: m.text('newWebhook.eventsInvalid') }),
    ...(description.success ? {} : { description: m.text('newWebhook.descriptionInvalid') }),
  };
  const again = (found: NewWebhookErrors) => {
    const shown = { ...form, url: form.url.slice(0, 2000), events: form.events.filter(isEventKind), description: form.description.slice(0, DESCRIPTION_MAX) };
    return c.html(newWebhookPage(m, shell, { form: shown, errors: found }), 422);
  };
  if (Object.keys(errors).length > 0 || !description.success) return again(errors);
  try {
    const made = await subscribe(companyChanges(c, shell), {
      url: form.url,
      events: form.events.filter(isEventKind),
      description: description.data === '' ? null : description.data,
    });
    return c.html(secretShownPage(m, shell, { id: made.id, url: made.url, secret: made.secret }));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'validation_failed') {
      const issues = (err.details.issues ?? []) as Issue[];
      const reason = issues.find((issue) => issue.path === 'url')?.message ?? '';
      return again({ url: m.text('newWebhook.urlInvalid', { reason }) });
    }
    if (err.code === 'webhook_exists') return again({ url: m.text('newWebhook.urlTaken') });
    if (err.code === 'webhook_limit_reached') return again({ form: m.text('newWebhook.limitReached', { limit: SUBSCRIPTIONS_PER_COMPANY }) });
    throw err;
  }
}
