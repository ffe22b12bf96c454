import type { Reminders, RoleType, SigningOrder } from '../../data/schema.js';
import type { OutboxMessage } from '../../outbox/outbox.js';
import { queueTopics } from '../queue-topics.js';
import { firstTurn } from './resolve-recipients.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * What a sent envelope will hand to the queue, written to the outbox with it: the signing e-mails
 * of the recipients whose turn it is, the `envelope.sent` webhook event, the first reminder and
 * the expiry. Each carries ids only; its consumer reads the envelope when the message is due, and
 * does nothing for one that is gone.
 */
export function envelopeFollowUps(input: {
  envelopeId: string;
  eventId: string;
  template: { signingOrder: SigningOrder; reminders: Reminders | null; expiryDays: number | null };
  recipients: { id: string; type: RoleType; order: number }[];
  now: Date;
}): OutboxMessage[] {
  const { envelopeId, template, now } = input;
  const messages: OutboxMessage[] = firstTurn(input.recipients, template.signingOrder).map((recipient) => ({
    topic: queueTopics.signingEmail,
    body: { envelope_id: envelopeId, recipient_id: recipient.id, reminder: false },
    dedupeId: `${envelopeId}.${recipient.id}.request`,
  }));
  messages.push({ topic: queueTopics.webhookDispatch, body: { event_id: input.eventId }, dedupeId: input.eventId });
  if (template.reminders) {
    messages.push({
      topic: queueTopics.remind,
      body: { envelope_id: envelopeId },
      notBefore: new Date(now.getTime() + template.reminders.first_after_days * DAY_MS),
      dedupeId: `${envelopeId}.remind.1`,
    });
  }
  if (template.expiryDays) {
    messages.push({
      topic: queueTopics.expire,
      body: { envelope_id: envelopeId },
      notBefore: new Date(now.getTime() + template.expiryDays * DAY_MS),
      dedupeId: `${envelopeId}.expire`,
    });
  }
  return messages;
}
