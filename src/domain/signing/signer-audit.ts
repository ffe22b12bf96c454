import type { recipients } from '../../data/schema.js';
import type { AuditEntry } from '../envelopes/record-change.js';
import type { SignerContext } from './signing-state.js';

type Recipient = typeof recipients.$inferSelect;

/** The actor part of a signer's audit row: who they are, from where, with what. */
export function signerAudit(recipient: Recipient, who: SignerContext, extra: Record<string, unknown> = {}): Omit<AuditEntry, 'id' | 'kind'> {
  return {
    actorType: 'recipient',
    actorId: recipient.id,
    data: { recipient_id: recipient.id, email: recipient.email, ip: who.ip, user_agent: who.userAgent, ...extra },
  };
}

/** How webhook payloads name a recipient: never with their link. */
export function recipientSummary(recipient: Recipient) {
  return {
    recipient_id: recipient.id,
    role: recipient.role,
    name: recipient.name,
    email: recipient.email,
    recipient_type: recipient.type === 'signer' ? 'need-to-sign' : 'receives-copy',
  };
}
