/**
 * One envelope (`/app/envelopes/{id}`): its state, each recipient's steps with their times, the
 * finished PDF, the actions its state and the user's role allow (void with a reason, remind now),
 * and its audit trail as a timeline of sentences. Signing links are never shown: they are the
 * signers' credentials.
 */
import { html } from 'hono/html';
import type { CompanyEnvelope, RecipientProgress, TimelineEntry } from '../../domain/envelopes/company-envelope.js';
import { REMIND_EVERY_MS } from '../../domain/envelopes/remind-recipient.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { recipientStateText, stateBadge, timeOf, timeText } from './envelope-format.js';
import { type Html, layout, type Shell } from './layout.js';

export const VOID_REASON_MAX = 500;

/** What the page says above the rest: a change just done, or why the last post was refused. */
export type EnvelopeNotice =
  | { kind: 'voided' | 'reminded' }
  | { kind: 'reasonMissing' | 'reasonTooLong'; reason: string }
  | { kind: 'remindTooSoon' | 'notTheirTurn' | 'cannotVoid' };

export function envelopePage(m: AppMessages, shell: Shell, options: { envelope: CompanyEnvelope; mayAct: boolean; now: Date; notice?: EnvelopeNotice }): Html {
  const { envelope, mayAct, now, notice } = options;
  const mayVoid = mayAct && envelope.state === 'sent';
  const names = new Map(envelope.recipients.map((r) => [r.id, r.name]));
  return layout({
    m,
    title: envelope.title,
    shell: { ...shell, current: 'envelopes' },
    main: html`<section class="panel panel-wide" aria-labelledby="envelope-title">
<p><a href="/app/envelopes">${m.text('envelope.back')}</a></p>
${notice ? noticeOf(m, notice) : ''}
<h1 id="envelope-title">${envelope.title}</h1>
<dl class="details">
<div><dt>${m.text('envelope.state')}</dt><dd>${stateBadge(m, envelope.state)}</dd></div>
<div><dt>${m.text('envelope.template')}</dt><dd>${envelope.template ?? ''}</dd></div>
<div><dt>${m.text('envelope.sender')}</dt><dd>${envelope.sender.name ? `${envelope.sender.name} (${envelope.sender.email})` : envelope.sender.email}</dd></div>
<div><dt>${m.text('envelope.sent')}</dt><dd>${timeOf(envelope.sentAt)}</dd></div>
${envelope.completedAt ? html`<div><dt>${m.text('envelope.completed')}</dt><dd>${timeOf(envelope.completedAt)}</dd></div>` : ''}
${envelope.voidedAt ? html`<div><dt>${m.text('envelope.voided')}</dt><dd>${timeOf(envelope.voidedAt)}</dd></div>` : ''}
${envelope.expiresAt && envelope.state === 'sent' ? html`<div><dt>${m.text('envelope.expires')}</dt><dd>${timeOf(envelope.expiresAt)}</dd></div>` : ''}
</dl>

<h2 id="recipients-title">${m.text('envelope.recipients')}</h2>
<div class="table-scroll" role="region" aria-labelledby="recipients-title" tabindex="0">
<table class="list list-stacking">
<thead><tr>
<th scope="col">${m.text('envelope.column.recipient')}</th>
<th scope="col">${m.text('envelope.column.state')}</th>
<th scope="col">${m.text('envelope.column.sent')}</th>
<th scope="col">${m.text('envelope.column.viewed')}</th>
<th scope="col">${m.text('envelope.column.verified')}</th>
<th scope="col">${m.text('envelope.column.signed')}</th>
<th scope="col">${m.text('envelope.column.declined')}</th>
${mayAct ? html`<th scope="col">${m.text('envelope.column.remind')}</th>` : ''}
</tr></thead>
<tbody>
${envelope.recipients.map((r) => recipientRow(m, shell, envelope, r, mayAct, now))}
</tbody>
</table>
</div>

<h2>${m.text('envelope.document')}</h2>
${documentPart(m, envelope)}

${
  mayVoid
    ? html`<h2>${m.text('envelope.void')}</h2>
<form method="post" action="/app/envelopes/${envelope.id}/void" class="void-form">
<input type="hidden" name="form_token" value="${shell.formToken}">
${voidReasonField(m, notice)}
<button type="submit" class="button-danger">${m.text('envelope.voidSubmit')}</button>
</form>`
    : ''
}

<h2>${m.text('envelope.history')}</h2>
<ol class="timeline">
${envelope.timeline.map((entry) => html`<li>${timeOf(entry.at)} <span>${sentenceOf(m, entry, names)}</span></li>`)}
</ol>
${envelope.timelineCut ? html`<p class="hint">${m.text('envelope.historyCut')}</p>` : ''}
</section>`,
  });
}

function noticeOf(m: AppMessages, notice: EnvelopeNotice): Html {
  if (notice.kind === 'voided' || notice.kind === 'reminded') return html`<p class="status" role="status">${m.text(`envelope.notice.${notice.kind}`)}</p>`;
  if (notice.kind === 'reasonMissing' || notice.kind === 'reasonTooLong') return html``;
  return html`<p class="field-error" role="alert"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${m.text(`envelope.notice.${notice.kind}`)}</p>`;
}

function voidReasonField(m: AppMessages, notice: EnvelopeNotice | undefined): Html {
  const problem = notice && (notice.kind === 'reasonMissing' || notice.kind === 'reasonTooLong') ? notice : undefined;
  return html`<div class="field${problem ? ' field-invalid' : ''}">
<label for="reason">${m.text('envelope.voidReason')}</label>
${problem ? html`<p class="field-error" id="reason-error"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${m.text(`envelope.notice.${problem.kind}`, { max: VOID_REASON_MAX })}</p>` : ''}
<textarea id="reason" name="reason" rows="3" maxlength="${VOID_REASON_MAX}" required${problem ? html` aria-invalid="true" aria-describedby="reason-error" autofocus` : ''}>${problem?.reason ?? ''}</textarea>
<p class="hint">${m.text('envelope.voidHint')}</p>
</div>`;
}

function recipientRow(m: AppMessages, shell: Shell, envelope: CompanyEnvelope, r: RecipientProgress, mayAct: boolean, now: Date): Html {
  const nextReminder = r.remindedAt ? new Date(r.remindedAt.getTime() + REMIND_EVERY_MS) : null;
  const remindCell = !mayAct
    ? ''
    : !r.turn
      ? html`<td></td>`
      : nextReminder && nextReminder > now
        ? html`<td data-label="${m.text('envelope.column.remind')}">${m.text('envelope.remindedAt', { at: timeText(r.remindedAt!), again: timeText(nextReminder) })}</td>`
        : html`<td data-label="${m.text('envelope.column.remind')}"><form method="post" action="/app/envelopes/${envelope.id}/remind">
<input type="hidden" name="form_token" value="${shell.formToken}">
<input type="hidden" name="recipient_id" value="${r.id}">
<button type="submit" class="button-quiet">${m.text('envelope.remindNow')}<span class="visually-hidden"> (${r.name})</span></button>
</form></td>`;
  return html`<tr>
<th scope="row">${r.name}<br><span class="hint">${r.email}</span><br><span class="hint">${r.type === 'cc' ? m.text('envelope.receivesCopy', { role: r.role }) : r.role}</span></th>
<td data-label="${m.text('envelope.column.state')}">${r.type === 'cc' ? copyStateText(m, envelope, r) : recipientStateText(m, shownState(envelope, r))}${r.turn ? html`<br><span class="hint">${m.text('envelope.theirTurn')}</span>` : ''}</td>
<td data-label="${m.text('envelope.column.sent')}">${timeOf(r.sentAt, '–')}</td>
<td data-label="${m.text('envelope.column.viewed')}">${timeOf(r.viewedAt, '–')}</td>
<td data-label="${m.text('envelope.column.verified')}">${timeOf(r.verifiedAt, '–')}</td>
<td data-label="${m.text('envelope.column.signed')}">${timeOf(r.signedAt, '–')}</td>
<td data-label="${m.text('envelope.column.declined')}">${timeOf(r.declinedAt, '–')}</td>
${remindCell}
</tr>`;
}

/**
 * A signer of a sequential envelope is stored as sent from the start, but is e-mailed only when
 * their turn comes: until then the page says they wait, not that they were e-mailed.
 */
function shownState(envelope: CompanyEnvelope, r: RecipientProgress): RecipientProgress['state'] {
  return r.state === 'sent' && r.sentAt === null && envelope.state === 'sent' ? 'pending' : r.state;
}

/** A copy-only recipient is e-mailed once, the finished PDF: sent, still to come, or never (the envelope did not finish). */
function copyStateText(m: AppMessages, envelope: CompanyEnvelope, r: RecipientProgress): string {
  if (r.sentAt) return m.text('envelope.copySent');
  return m.text(envelope.state === 'sent' || envelope.state === 'completed' ? 'envelope.copyLater' : 'envelope.copyNever');
}

function documentPart(m: AppMessages, envelope: CompanyEnvelope): Html {
  if (envelope.documentReady)
    return html`<p><a class="button-link" href="/app/envelopes/${envelope.id}/document.pdf" download>${m.text('envelope.download')}</a></p>
<p class="hint">${m.text('envelope.certificateInside')}</p>`;
  return html`<p>${m.text(envelope.state === 'completed' ? 'envelope.documentMaking' : envelope.state === 'sent' ? 'envelope.documentLater' : 'envelope.documentNone')}</p>`;
}

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** A row of the trail as a sentence; a kind without its own sentence is named as it is stored. */
export function sentenceOf(m: AppMessages, entry: TimelineEntry, names: Map<string, string>): string {
  const { data } = entry;
  const recipientId = str(data.recipient_id) || (entry.actorType === 'recipient' ? (entry.actorId ?? '') : '');
  const who = names.get(recipientId) ?? str(data.email);
  const by = entry.actorType === 'user' ? (entry.actorName ?? m.text('timeline.someone')) : entry.actorType === 'admin' ? m.text('timeline.operator') : '';
  switch (entry.kind) {
    case 'envelope.sent':
      return typeof data.template_version === 'number'
        ? m.text('timeline.sentVersion', { sender: str(data.sender_email), version: data.template_version })
        : m.text('timeline.sent', { sender: str(data.sender_email) });
    case 'envelope.voided':
      return m.text(data.reason ? 'timeline.voidedWhy' : 'timeline.voided', { by: by || m.text('timeline.someone'), reason: str(data.reason) });
    case 'envelope.expired':
      return m.text('timeline.expired');
    case 'envelope.completed':
      return m.text('timeline.completed');
    case 'envelope.document_ready':
      // The same moment every recipient, copy-only ones too, is e-mailed the finished PDF.
      return m.text('timeline.documentReady');
    case 'recipient.emailed':
      return m.text(data.reminder === true ? 'timeline.emailedReminder' : 'timeline.emailed', { who });
    case 'recipient.reminded':
      return m.text('timeline.reminded', { by: by || m.text('timeline.someone'), who });
    case 'recipient.code_sent':
      return m.text('timeline.codeSent', { who });
    case 'recipient.code_failed':
      return m.text('timeline.codeFailed', { who });
    case 'recipient.verified':
      return m.text('timeline.verified', { who });
    case 'recipient.viewed':
      return m.text('timeline.viewed', { who });
    case 'recipient.consented':
      return m.text('timeline.consented', { who });
    case 'recipient.signed':
      return m.text('timeline.signed', { who });
    case 'recipient.declined':
      return m.text('timeline.declined', { who, reason: str(data.reason) });
    case 'recipient.repeated':
      return m.text('timeline.repeated', { who, count: Number(data.count) || 0 });
    default:
      return entry.kind;
  }
}
