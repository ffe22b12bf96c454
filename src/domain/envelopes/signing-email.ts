import { and, eq } from 'drizzle-orm';
import { auditEvents, envelopes, recipients, templateVersions } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { asMultiLine, asSingleLine } from '../../lib/single-line-text.js';
import { brandLook } from '../companies/brand-look.js';
import { brandedEmail } from '../emails/branded-email.js';
import { emailWordsFor } from '../emails/email-words.js';
import { isWaiting } from '../shared/waiting-recipients.js';
import type { VerbContext } from '../verb-context.js';
import { signingToken, signingUrl } from './signing-links.js';

/**
 * Queue consumer: the e-mail that asks one recipient to sign (or reminds them). Nothing is sent
 * for an envelope that is gone, no longer out for signature, or a recipient who has already acted.
 * The queue delivers at least once, so the e-mail carries an idempotency key named after the
 * message (the request, or one reminder round): a delivery again sends no second e-mail.
 */
export async function sendSigningEmail(ctx: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const { services, now } = ctx;
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
      templateLanguage: templateVersions.language,
    })
    .from(recipients)
    .innerJoin(envelopes, eq(envelopes.id, recipients.envelopeId))
    // The version it was sent with speaks, whatever a later save of the template set.
    .leftJoin(templateVersions, and(eq(templateVersions.templateId, envelopes.templateId), eq(templateVersions.version, envelopes.templateVersion)))
    .where(and(eq(recipients.id, recipientId), eq(recipients.envelopeId, envelopeId)))
    .limit(1);
  if (row?.envelope.status !== 'sent' || !isWaiting(row.recipient.status) || row.recipient.type !== 'signer') return;
  const { envelope: stored, recipient } = row;
  // Text stored before the API refused control characters is cleaned, not refused: the mailer
  // would refuse it on every delivery of this message, and the recipient would never be asked.
  const envelope = {
    ...stored,
    title: asSingleLine(stored.title),
    emailSubject: asSingleLine(stored.emailSubject),
    emailMessage: stored.emailMessage && asMultiLine(stored.emailMessage),
  };
  if (envelope.expiresAt && envelope.expiresAt <= now) return;

  const link = signingUrl(services.config.baseUrl, await signingToken(services.config.tokenSecret, envelopeId, recipientId));
  const reminder = body.reminder === true;
  // Only a reminder published before reminders carried their round lacks one; a recipient has at
  // most one such, so a key without the round is still that reminder's own.
  const idempotencyKey = reminder
    ? `${envelopeId}.${recipientId}.reminder${body.round === undefined ? '' : `.${String(body.round)}`}`
    : `${envelopeId}.${recipientId}.request`;
  const look = await brandLook(services, envelope.companyId);
  const { words, ...speech } = emailWordsFor({ template: row.templateLanguage, company: look.language });
  const values = {
    from: look.displayName,
    senderEmail: envelope.senderEmail,
    title: envelope.title,
    subject: envelope.emailSubject,
    message: envelope.emailMessage,
    link,
    expiresAt: envelope.expiresAt,
  };
  const letter = reminder ? words.reminder(values) : words.signingRequest(values);
  await services.mailer.send(
    brandedEmail(look, speech, letter, {
      to: { name: asSingleLine(recipient.name), email: recipient.email },
      tags: { envelope_id: envelopeId, recipient_id: recipientId, kind: reminder ? 'reminder' : 'signing_request' },
      idempotencyKey,
    }),
  );
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
      createdAt: now,
    })
    .onConflictDoNothing();
}
