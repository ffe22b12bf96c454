import { and, asc, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { envelopeFields, envelopes, recipients } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { type ChangeRecord, recordChange, sideEffectsOf } from '../envelopes/record-change.js';
import { brandLook } from '../companies/brand-look.js';
import { templateDocumentOf } from '../documents/stored-documents.js';
import { eventData } from '../webhooks/event-data.js';
import { committed, type VerbContext } from '../verb-context.js';
import { certificateTrail, consentSection, consentsGiven } from './certificate-trail.js';
import { envelopeLanguage, finishedField } from './finished-values.js';
import { boundedTrail } from './repeated-events.js';
import { fileNameOf } from './signing-document.js';
import { consent } from './signing-state.js';
import { queueTopics } from '../queue-topics.js';

/**
 * Queue consumer, after completion: makes the finished PDF (every value drawn in place, the
 * certificate pages appended, the service's seal over both, time-stamped when an authority is
 * configured), which the PDF maker writes to the document store, and keys it here with its size and
 * hash (of the sealed file), with an `envelope.document_ready` event
 * and the e-mails to every recipient, in one batch. Made here, not on the last signer's request, so
 * the signer is not kept waiting; a redelivery after it is stored does nothing.
 */
export async function finishEnvelope(ctx: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const { services, now } = ctx;
  const envelopeId = String(body.envelope_id);
  const { db } = services.database;
  const [envelope] = await db
    .select({
      id: envelopes.id,
      companyId: envelopes.companyId,
      templateId: envelopes.templateId,
      templateVersion: envelopes.templateVersion,
      title: envelopes.title,
      senderEmail: envelopes.senderEmail,
      status: envelopes.status,
      completedAt: envelopes.completedAt,
      documentSha256: envelopes.documentSha256,
      finished: envelopes.signedDocumentSha256,
    })
    .from(envelopes)
    .where(eq(envelopes.id, envelopeId))
    .limit(1);
  if (envelope?.status !== 'completed' || envelope.finished) return;
  const scoped = (table: { companyId: AnyPgColumn }) => eq(table.companyId, envelope.companyId);
  const [original, everyone, fields, trail, look] = await Promise.all([
    templateDocumentOf(services, envelope),
    db
      .select()
      .from(recipients)
      .where(and(eq(recipients.envelopeId, envelopeId), scoped(recipients)))
      .orderBy(asc(recipients.order), asc(recipients.position)),
    db
      .select()
      .from(envelopeFields)
      .where(and(eq(envelopeFields.envelopeId, envelopeId), scoped(envelopeFields))),
    // Read bounded: however many tries a stranger made, the certificate and its job stay small.
    boundedTrail(services, envelopeId, envelope.companyId),
    // The name the signers met on the page and in the e-mails, so the certificate names the same sender.
    brandLook(services, envelope.companyId),
  ]);
  // The template's document must be the one that was sent: a finished PDF of another would be false.
  if (!original || original.sha256 !== envelope.documentSha256) throw new Error(`The document of envelope ${envelopeId} is no longer the one that was sent.`);

  const completedAt = envelope.completedAt ?? now;
  // Dates are drawn as the envelope's signers were spoken to.
  const language = await envelopeLanguage(services, envelope);
  const finished = await services.pdf.finish({
    originalKey: original.key,
    envelopeId,
    title: envelope.title,
    senderEmail: envelope.senderEmail,
    senderName: look.displayName,
    fields: fields.map((field) => finishedField(field, language)),
    recipients: certificateTrail(everyone, trail),
    // Each signer agreed to the consent in their page's language: every version given is printed.
    ...consentSection(consentsGiven(trail), consent),
    originalSha256: envelope.documentSha256,
    completedAt,
  });

  const fileName = fileNameOf(envelope.title, '-signed');
  const ready: ChangeRecord = {
    companyId: envelope.companyId,
    envelopeId,
    at: now,
    audit: [
      {
        id: await uuidFromName(`${envelopeId}:document_ready`),
        kind: 'envelope.document_ready',
        actorType: 'system',
        data: { sha256: finished.sha256, size: finished.size },
      },
    ],
    event: {
      id: `msg_document_ready_${envelopeId}`,
      kind: 'envelope.document_ready',
      payload: eventData({
        envelope: { ...envelope, id: envelopeId },
        at: now,
        document: { file_name: fileName, sha256: finished.sha256, size: finished.size },
      }),
    },
    outbox: [{ topic: queueTopics.documentReadyEmail, body: { envelope_id: envelopeId }, dedupeId: `${envelopeId}.ready.emails` }],
  };
  const [stored] = await services.database.atomic((q) => [
    q
      .update(envelopes)
      .set({ signedDocumentKey: finished.key, signedDocumentSize: finished.size, signedDocumentSha256: finished.sha256 })
      .where(and(eq(envelopes.id, envelopeId), eq(envelopes.status, 'completed'), sql`${envelopes.signedDocumentSha256} is null`))
      .returning({ id: envelopes.id }),
    ...recordChange(
      q,
      ready,
      sql`exists (select 1 from ${envelopes} where ${envelopes.id} = ${envelopeId} and ${envelopes.signedDocumentSha256} = ${finished.sha256})`,
    ),
  ]);
  if ((stored as unknown[]).length > 0) committed(ctx, sideEffectsOf(ready));
}
