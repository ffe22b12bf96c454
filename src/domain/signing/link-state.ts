import { languageOfTag } from '../../i18n/languages.js';
import { isWaiting } from '../shared/waiting-recipients.js';
import { placementOf } from '../templates/field-placement.js';
import type { Link } from './resolve-link.js';
import type { SigningEnvelope, SigningField, SigningState } from './signing-state.js';

/**
 * Whose turn it is: in sequential order, the signers of the lowest order that has not finished;
 * in parallel order, every signer who has not acted.
 */
export function isTheirTurn(link: { envelope: Pick<Link['envelope'], 'signingOrder'>; everyone: Link['everyone'] }, recipientId: string): boolean {
  const signers = link.everyone.filter((person) => person.type === 'signer');
  const me = signers.find((person) => person.id === recipientId);
  if (!me || !isWaiting(me.status)) return false;
  if (link.envelope.signingOrder === 'parallel') return true;
  return signers.every((person) => person.order >= me.order || person.status === 'signed');
}

/** What the link shows now. The envelope's end comes first: a voided envelope's links show only that. */
export function linkState(link: Link, now: Date): SigningState {
  const { envelope: row, recipient } = link;
  const language = [link.languages?.template, link.languages?.company].map((tag) => (tag ? languageOfTag(tag) : null)).find((found) => found !== null) ?? null;
  const envelope: SigningEnvelope = {
    id: row.id,
    title: row.title,
    message: row.emailMessage,
    senderEmail: row.senderEmail,
    expiresAt: row.expiresAt,
    language,
  };
  switch (row.status) {
    case 'voided':
      return { kind: 'voided', envelope };
    case 'declined':
      return { kind: 'declined', envelope, byThisRecipient: recipient.status === 'declined' };
    case 'expired':
      return { kind: 'expired', envelope };
    case 'completed':
      return { kind: 'completed', envelope, documentReady: row.signedDocumentSha256 !== null, signedByThisRecipient: recipient.status === 'signed' };
  }
  if (row.expiresAt && row.expiresAt <= now) return { kind: 'expired', envelope };
  if (recipient.type === 'cc') return { kind: 'copy', envelope };
  if (recipient.status === 'signed') return { kind: 'signed', envelope, signedAt: recipient.signedAt ?? now };
  if (!isTheirTurn(link, recipient.id)) return { kind: 'not_your_turn', envelope, recipient: { name: recipient.name } };
  return {
    kind: 'sign',
    envelope,
    recipient: { id: recipient.id, name: recipient.name, email: recipient.email },
    pages: link.pages,
    fields: link.fields.map((field) => signingField(field, recipient, now)),
  };
}

function signingField(field: Link['fields'][number], recipient: Link['recipient'], now: Date): SigningField {
  return { id: field.id, ...placementOf(field), prefill: prefillOf(field.type, recipient, now) };
}

/** Values the service fills in: the signer may not change their name, e-mail or the date signed. */
export function prefillOf(type: string, recipient: { name: string; email: string }, now: Date): string | null {
  if (type === 'name') return recipient.name;
  if (type === 'email') return recipient.email;
  if (type === 'date_signed') return now.toISOString().slice(0, 10);
  return null;
}
