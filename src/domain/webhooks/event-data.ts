import type { EnvelopeStatus, recipients } from '../../data/schema.js';

type Recipient = Pick<typeof recipients.$inferSelect, 'id' | 'role' | 'name' | 'email' | 'type'>;

/** How every event names its envelope: the same shape in all of them. */
export type EventEnvelope = { envelope_id: string; title: string; status: EnvelopeStatus; sender: { email: string } };

/** How events name a recipient: never with their signing link, which is a credential. */
export function eventRecipient(recipient: Recipient) {
  return {
    recipient_id: recipient.id,
    role: recipient.role,
    name: recipient.name,
    email: recipient.email,
    recipient_type: recipient.type === 'signer' ? ('need-to-sign' as const) : ('receives-copy' as const),
  };
}

export type EventRecipient = ReturnType<typeof eventRecipient>;

/**
 * The `data` of an event: the envelope (always, as it is after the event), the recipient it is
 * about (viewed, signed, declined), every recipient (sent, completed), the reason (declined,
 * voided), the document (document_ready), and when it happened.
 */
export function eventData(input: {
  envelope: { id: string; title: string; status: EnvelopeStatus; senderEmail: string };
  at: Date;
  recipient?: Recipient;
  recipients?: Recipient[];
  reason?: string | null;
  document?: { file_name: string; sha256: string; size: number };
}): Record<string, unknown> {
  const { envelope } = input;
  return {
    envelope: { envelope_id: envelope.id, title: envelope.title, status: envelope.status, sender: { email: envelope.senderEmail } } satisfies EventEnvelope,
    ...(input.recipient ? { recipient: eventRecipient(input.recipient) } : {}),
    ...(input.recipients ? { recipients: input.recipients.map(eventRecipient) } : {}),
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    ...(input.document ? { document: input.document } : {}),
    occurred_at: input.at.toISOString(),
  };
}
