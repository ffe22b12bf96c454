import { asc, eq } from 'drizzle-orm';
import { auditEvents, envelopes } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isEnvelopeId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { fileNameOf } from '../signing/signing-document.js';
import { envelopeNotFound } from './get-signing-links.js';

/** The finished PDF of an envelope, for the operator; a conflict until it has been made. */
export async function finishedDocument(services: Services, envelopeId: string): Promise<{ bytes: Uint8Array; fileName: string; sha256: string }> {
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const [row] = await services.database.db
    .select({ title: envelopes.title, status: envelopes.status, bytes: envelopes.signedDocument, sha256: envelopes.signedDocumentSha256 })
    .from(envelopes)
    .where(eq(envelopes.id, envelopeId))
    .limit(1);
  if (!row) throw envelopeNotFound(envelopeId);
  if (!row.bytes || !row.sha256) {
    const message = row.status === 'completed' ? 'The finished PDF is still being made; try again shortly.' : `The envelope is ${row.status}: it has no finished PDF.`;
    throw new DomainError('conflict', message, { envelope_id: envelopeId, status: row.status });
  }
  return { bytes: row.bytes, fileName: fileNameOf(row.title, '-signed'), sha256: row.sha256 };
}

/** The audit trail of an envelope, oldest first, as JSON for the operator. */
export async function auditTrail(services: Services, envelopeId: string) {
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const { db } = services.database;
  const [[envelope], trail] = await Promise.all([
    db.select({ status: envelopes.status }).from(envelopes).where(eq(envelopes.id, envelopeId)).limit(1),
    db.select().from(auditEvents).where(eq(auditEvents.envelopeId, envelopeId)).orderBy(asc(auditEvents.createdAt)),
  ]);
  if (!envelope) throw envelopeNotFound(envelopeId);
  return {
    envelope_id: envelopeId,
    status: envelope.status,
    events: trail.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      actor: { type: entry.actorType, id: entry.actorId },
      data: entry.data,
      at: entry.createdAt.toISOString(),
    })),
  };
}
