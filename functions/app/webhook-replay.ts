/**
 * POST /app/webhooks/{id}/replay: `since`, a date and time in UTC as a `datetime-local` field sends
 * it. Every event of the subscription's kinds since then is delivered again (the domain's replay,
 * its window and budgets). The page answers how many; a time that cannot be read, in the future,
 * older than the 30 days events are kept, or holding too many events is the form's mistake (422),
 * nothing started. A replay still running 409, past the company's replays of the day 429.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { timeText } from '../../src/company-app/html/envelope-format.js';
import { appMessages } from '../../src/company-app/messages.js';
import { showWebhook, webhookNotFoundAnswer } from '../../src/company-app/webhook-answer.js';
import { webhooksManageShell } from '../../src/company-app/webhooks-access.js';
import { EVENT_RETENTION_MS } from '../../src/domain/webhooks/event-retention.js';
import { startReplay } from '../../src/domain/webhooks/replay-events.js';
import { DomainError } from '../../src/errors.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { companyChanges } from '../../src/company-app/page-access.js';

const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?$/;

/** The instant a `datetime-local` value names, read as UTC; null for what is no time of the calendar. */
export function utcInstant(text: string): Date | null {
  const match = LOCAL_TIME.exec(text);
  if (!match) return null;
  const seconds = match[3] ?? ':00';
  const at = new Date(`${match[1]}T${match[2]}${seconds}Z`);
  if (Number.isNaN(at.getTime())) return null;
  // A day or hour past its end (2026-02-30, 24:10) is rolled over by Date: refused, not moved.
  return at.toISOString().slice(0, 16) === `${match[1]}T${match[2]}` ? at : null;
}

export async function replayWebhook(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await webhooksManageShell(c);
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const id = c.req.param('id') ?? '';
  const typed = (singleValue((await readForm(c)) ?? [], 'since') ?? '').trim().slice(0, 40);
  const since = utcInstant(typed);
  const mistake = (error: string) => showWebhook(c, shell, id, { replay: { since: typed, error }, status: 422 });
  if (!since) return mistake(m.text('webhook.replaySinceInvalid'));
  const ctx = companyChanges(c, shell);
  try {
    const { replayed } = await startReplay(ctx, { subscriptionId: id, request: { since } });
    return showWebhook(c, shell, id, { notice: { kind: 'replayed', count: replayed } });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'webhook_not_found') return webhookNotFoundAnswer(c);
    if (err.code === 'validation_failed') {
      // The domain refused the window: said in the form's words, by which of its rules it broke.
      const oldest = new Date(ctx.now.getTime() - EVENT_RETENTION_MS);
      if (since > ctx.now) return mistake(m.text('webhook.replaySinceFuture'));
      if (since < oldest) return mistake(m.text('webhook.replaySinceTooOld', { oldest: timeText(new Date(Math.ceil(oldest.getTime() / 60_000) * 60_000)) }));
      return mistake(m.text('webhook.replayTooMany'));
    }
    if (err.code === 'replay_in_progress') return showWebhook(c, shell, id, { notice: { kind: 'replayRunning' }, status: 409 });
    if (err.code === 'rate_limited') return showWebhook(c, shell, id, { notice: { kind: 'rateLimited', seconds: err.retryAfterSeconds ?? 60 }, status: 429 });
    throw err;
  }
}
