import { and, eq } from 'drizzle-orm';
import { envelopes } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isEnvelopeId } from '../../lib/ids.js';
import type { StoredDocument } from '../../ports/document-store.js';
import { signedDocumentColumns, signedDocumentOf } from '../documents/stored-documents.js';
import type { ReadContext } from '../read-context.js';
import { fileNameOf } from '../signing/signing-document.js';
import { envelopeNotFound } from './envelope-not-found.js';

/**
 * The finished PDF of an envelope, for the operator, or for a user of the application within their
 * company (`companyId`: another company's envelope is not found); a conflict until it has been made.
 */
export async function finishedDocument(
  { services }: ReadContext,
  { envelopeId, companyId }: { envelopeId: string; companyId?: string },
): Promise<StoredDocument & { fileName: string }> {
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const [row] = await services.database.db
    .select({ title: envelopes.title, status: envelopes.status, ...signedDocumentColumns })
    .from(envelopes)
    .where(and(eq(envelopes.id, envelopeId), companyId === undefined ? undefined : eq(envelopes.companyId, companyId)))
    .limit(1);
  if (!row) throw envelopeNotFound(envelopeId);
  const document = await signedDocumentOf(services, envelopeId, row);
  if (!document) {
    const message =
      row.status === 'completed' ? 'The finished PDF is still being made; try again shortly.' : `The envelope is ${row.status}: it has no finished PDF.`;
    throw new DomainError('conflict', message, { envelope_id: envelopeId, status: row.status });
  }
  return { ...document, fileName: fileNameOf(row.title, '-signed') };
}
