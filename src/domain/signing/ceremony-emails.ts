import { asc, eq } from 'drizzle-orm';
import { envelopes, recipients } from '../../data/schema.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import type { Services } from '../../services.js';
import { signingToken, signingUrl } from '../envelopes/signing-links.js';

/**
 * Queue consumers: the e-mails of the ceremony's ends. Each is keyed by envelope (and recipient),
 * so a redelivered message sends nothing twice. Titles and names stored before the API refused
 * control characters are made single-line here: the mailer refuses them in a header, on every
 * delivery of the message.
 */

async function envelopeOf(services: Services, envelopeId: string) {
  const [envelope] = await services.database.db
    .select({ id: envelopes.id, title: envelopes.title, senderEmail: envelopes.senderEmail, status: envelopes.status, companyId: envelopes.companyId })
    .from(envelopes)
    .where(eq(envelopes.id, envelopeId))
    .limit(1);
  return envelope && { ...envelope, title: asSingleLine(envelope.title) };
}

/** To the sender, when the last signer has signed. */
export async function sendCompletedEmail(services: Services, body: Record<string, unknown>): Promise<void> {
  const envelope = await envelopeOf(services, String(body.envelope_id));
  if (!envelope || envelope.status !== 'completed') return;
  await services.mailer.send({
    to: { name: envelope.senderEmail, email: envelope.senderEmail },
    subject: `Completed: ${envelope.title}`,
    text: [`Everyone has signed "${envelope.title}" (${envelope.id}).`, '', 'The finished PDF follows as soon as it is made, with the envelope.document_ready webhook event.'].join('\n'),
    tags: { envelope_id: envelope.id, kind: 'completed' },
    idempotencyKey: `${envelope.id}.completed`,
  });
}

/** To the sender, when a signer declined: the envelope is over. */
export async function sendDeclinedEmail(services: Services, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const [envelope, [decliner]] = await Promise.all([
    envelopeOf(services, envelopeId),
    services.database.db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId)).then((rows) => rows.filter((row) => row.status === 'declined')),
  ]);
  if (!envelope || envelope.status !== 'declined') return;
  await services.mailer.send({
    to: { name: envelope.senderEmail, email: envelope.senderEmail },
    subject: `Declined: ${envelope.title}`,
    text: [
      `${decliner ? `${asSingleLine(decliner.name)} (${decliner.email})` : 'A signer'} declined to sign "${envelope.title}" (${envelope.id}).`,
      '',
      'The envelope is closed: no one else can sign it. The reason is in the envelope.declined webhook event and the audit trail.',
    ].join('\n'),
    tags: { envelope_id: envelope.id, kind: 'declined' },
    idempotencyKey: `${envelope.id}.declined`,
  });
}

/** To every recipient, signers and copies, when the finished PDF is ready: their own link downloads it. */
export async function sendDocumentReadyEmails(services: Services, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const [envelope, everyone] = await Promise.all([
    envelopeOf(services, envelopeId),
    services.database.db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId)).orderBy(asc(recipients.order), asc(recipients.position)),
  ]);
  if (!envelope || envelope.status !== 'completed') return;
  for (const person of everyone) {
    const link = signingUrl(services.config.baseUrl, await signingToken(services.config.tokenSecret, envelopeId, person.id));
    await services.mailer.send({
      to: { name: asSingleLine(person.name), email: person.email },
      subject: `Signed by everyone: ${envelope.title}`,
      text: [
        `"${envelope.title}" has been signed by everyone.`,
        '',
        `Download the signed document: ${link}`,
        '',
        'This link is personal; please do not forward it.',
      ].join('\n'),
      tags: { envelope_id: envelopeId, recipient_id: person.id, kind: 'document_ready' },
      idempotencyKey: `${envelopeId}.${person.id}.ready`,
    });
  }
}
