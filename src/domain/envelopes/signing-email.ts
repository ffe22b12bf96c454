import { and, eq } from 'drizzle-orm';
import { auditEvents, envelopes, recipients } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { asMultiLine, asSingleLine } from '../../lib/single-line-text.js';
import type { Services } from '../../services.js';
import { waitingStatuses } from './follow-ups.js';
import { signingToken, signingUrl } from './signing-links.js';

/**
 * Queue consumer: the e-mail that asks one recipient to sign (or reminds them). Nothing is sent
 * for an envelope that is gone, no longer out for signature, or a recipient who has already acted.
 * The queue delivers at least once, so the e-mail carries an idempotency key named after the
 * message (the request, or one reminder round): a delivery again sends no second e-mail.
 */
export async function sendSigningEmail(services: Services, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const recipientId = String(body.recipient_id);
  // Only the columns the e-mail needs: this runs after every send, and an envelope row is wide.
  const [row] = await services.database.db
    .select({
      envelope: {
        companyId: envelopes.companyId,
        status: envelopes.status,
        expiresAt: envelopes.expiresAt,
        senderEmail: envelopes.senderEmail,
        title: envelopes.title,
        emailSubject: envelopes.emailSubject,
        emailMessage: envelopes.emailMessage,
      },
      recipient: { status: recipients.status, type: recipients.type, name: recipients.name, email: recipients.email },
    })
    .from(recipients)
    .innerJoin(envelopes, eq(envelopes.id, recipients.envelopeId))
    .where(and(eq(recipients.id, recipientId), eq(recipients.envelopeId, envelopeId)))
    .limit(1);
  if (!row || row.envelope.status !== 'sent' || !waitingStatuses.includes(row.recipient.status) || row.recipient.type !== 'signer') return;
  const { envelope: stored, recipient } = row;
  // Text stored before the API refused control characters is cleaned, not refused: the mailer
  // would refuse it on every delivery of this message, and the recipient would never be asked.
  const envelope = {
    ...stored,
    title: asSingleLine(stored.title),
    emailSubject: asSingleLine(stored.emailSubject),
    emailMessage: stored.emailMessage && asMultiLine(stored.emailMessage),
  };
  if (envelope.expiresAt && envelope.expiresAt <= services.clock.now()) return;

  const link = signingUrl(services.config.baseUrl, await signingToken(services.config.tokenSecret, envelopeId, recipientId));
  const reminder = body.reminder === true;
  // Only a reminder published before reminders carried their round lacks one; a recipient has at
  // most one such, so a key without the round is still that reminder's own.
  const idempotencyKey = reminder
    ? `${envelopeId}.${recipientId}.reminder${body.round === undefined ? '' : `.${String(body.round)}`}`
    : `${envelopeId}.${recipientId}.request`;
  const lines = [
    reminder ? `Reminder: ${envelope.senderEmail} is still waiting for your signature on "${envelope.title}".` : `${envelope.senderEmail} sent you "${envelope.title}" to sign.`,
    '',
    ...(envelope.emailMessage ? [envelope.emailMessage, ''] : []),
    `Review and sign: ${link}`,
    '',
    'This link is personal: whoever has it can sign as you, so please do not forward it.',
    ...(envelope.expiresAt ? [`The request expires on ${envelope.expiresAt.toISOString().slice(0, 10)}.`] : []),
  ];
  await services.mailer.send({
    to: { name: asSingleLine(recipient.name), email: recipient.email },
    subject: reminder ? `Reminder: ${envelope.emailSubject}` : envelope.emailSubject,
    text: lines.join('\n'),
    tags: { envelope_id: envelopeId, recipient_id: recipientId, kind: reminder ? 'reminder' : 'signing_request' },
    idempotencyKey,
  });
  // The trail says when each e-mail went out; a redelivery records it once.
  await services.database.db
    .insert(auditEvents)
    .values({
      id: await uuidFromName(`email:${idempotencyKey}`),
      companyId: envelope.companyId,
      envelopeId,
      kind: 'recipient.emailed',
      actorType: 'system',
      data: { recipient_id: recipientId, email: recipient.email, reminder },
      createdAt: services.clock.now(),
    })
    .onConflictDoNothing();
}
