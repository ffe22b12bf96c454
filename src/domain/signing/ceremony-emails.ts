import { and, asc, eq } from 'drizzle-orm';
import { auditEvents, envelopes, recipients, templateVersions } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { asMultiLine, asSingleLine } from '../../lib/single-line-text.js';
import type { Services } from '../../services.js';
import { brandLook } from '../companies/brand-look.js';
import { brandedEmail } from '../emails/branded-email.js';
import { emailWordsFor } from '../emails/email-words.js';
import { signingToken, signingUrl } from '../envelopes/signing-links.js';
import type { VerbContext } from '../verb-context.js';

/**
 * Queue consumers: the e-mails of the ceremony's ends, in the company's brand. Each is keyed by
 * envelope (and recipient), so a redelivered message sends nothing twice. Titles and names stored
 * before the API refused control characters are made single-line here: the mailer refuses them in
 * a header, on every delivery of the message.
 */

async function envelopeOf(services: Services, envelopeId: string) {
  const [envelope] = await services.database.db
    .select({
      id: envelopes.id,
      title: envelopes.title,
      senderEmail: envelopes.senderEmail,
      status: envelopes.status,
      companyId: envelopes.companyId,
      templateLanguage: templateVersions.language,
    })
    .from(envelopes)
    // The version it was sent with speaks, whatever a later save of the template set.
    .leftJoin(templateVersions, and(eq(templateVersions.templateId, envelopes.templateId), eq(templateVersions.version, envelopes.templateVersion)))
    .where(eq(envelopes.id, envelopeId))
    .limit(1);
  return envelope && { ...envelope, title: asSingleLine(envelope.title) };
}

/**
 * The company's look and the words of its e-mails: to recipients in the template's language (else
 * the company's), to the sender, one of the company, in the company's.
 */
async function styleOf(services: Services, envelope: { companyId: string; templateLanguage: string | null }, to: 'recipient' | 'sender') {
  const look = await brandLook(services, envelope.companyId);
  const { words, ...speech } = emailWordsFor({ template: to === 'recipient' ? envelope.templateLanguage : null, company: look.language });
  return { look, speech, words };
}

/** To the sender, when the last signer has signed. */
export async function sendCompletedEmail({ services }: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const envelope = await envelopeOf(services, String(body.envelope_id));
  if (envelope?.status !== 'completed') return;
  const { look, speech, words } = await styleOf(services, envelope, 'sender');
  // The envelope's page in the company's application, where a signed-in user of the company gets the finished PDF.
  const link = `${services.config.baseUrl}/app/envelopes/${encodeURIComponent(envelope.id)}`;
  const letter = words.completed({ from: look.displayName, title: envelope.title, envelopeId: envelope.id, link });
  await services.mailer.send(
    brandedEmail(look, speech, letter, {
      to: { name: envelope.senderEmail, email: envelope.senderEmail },
      tags: { envelope_id: envelope.id, kind: 'completed' },
      idempotencyKey: `${envelope.id}.completed`,
    }),
  );
}

/** To the sender, when a signer declined: the envelope is over. The signer's reason is told. */
export async function sendDeclinedEmail({ services }: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const { db } = services.database;
  const [envelope, [decliner], [declined]] = await Promise.all([
    envelopeOf(services, envelopeId),
    db
      .select()
      .from(recipients)
      .where(and(eq(recipients.envelopeId, envelopeId), eq(recipients.status, 'declined')))
      .limit(1),
    // The decline's audit row holds the reason, under the id the decline gave it.
    uuidFromName(`${envelopeId}:declined`).then((id) =>
      db
        .select({ data: auditEvents.data })
        .from(auditEvents)
        .where(and(eq(auditEvents.id, id), eq(auditEvents.envelopeId, envelopeId)))
        .limit(1),
    ),
  ]);
  if (envelope?.status !== 'declined') return;
  const reason = (declined?.data as { reason?: unknown } | undefined)?.reason;
  const { look, speech, words } = await styleOf(services, envelope, 'sender');
  const letter = words.declined({
    from: look.displayName,
    title: envelope.title,
    envelopeId: envelope.id,
    decliner: decliner ? { name: asSingleLine(decliner.name), email: decliner.email } : null,
    reason: typeof reason === 'string' ? asMultiLine(reason) : null,
  });
  await services.mailer.send(
    brandedEmail(look, speech, letter, {
      to: { name: envelope.senderEmail, email: envelope.senderEmail },
      tags: { envelope_id: envelope.id, kind: 'declined' },
      idempotencyKey: `${envelope.id}.declined`,
    }),
  );
}

/** To every recipient, signers and copies, when the finished PDF is ready: their own link downloads it. */
export async function sendDocumentReadyEmails({ services }: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const [envelope, everyone] = await Promise.all([
    envelopeOf(services, envelopeId),
    services.database.db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId)).orderBy(asc(recipients.order), asc(recipients.position)),
  ]);
  if (envelope?.status !== 'completed') return;
  const { look, speech, words } = await styleOf(services, envelope, 'recipient');
  for (const person of everyone) {
    // Each recipient's e-mail holds their own link only.
    const link = signingUrl(services.config.baseUrl, await signingToken(services.config.tokenSecret, envelopeId, person.id));
    await services.mailer.send(
      brandedEmail(look, speech, words.documentReady({ from: look.displayName, title: envelope.title, link }), {
        to: { name: asSingleLine(person.name), email: person.email },
        tags: { envelope_id: envelopeId, recipient_id: person.id, kind: 'document_ready' },
        idempotencyKey: `${envelopeId}.${person.id}.ready`,
      }),
    );
  }
}
