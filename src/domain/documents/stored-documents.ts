/**
 * Where a template's document and an envelope's finished PDF are in the document store. A row the
 * move has not reached yet (the Workers move a few a minute) is moved by the read that meets it.
 */
import { and, eq } from 'drizzle-orm';
import { envelopes, templateDocuments } from '../../data/schema.js';
import type { StoredDocument } from '../../ports/document-store.js';
import type { Services } from '../../services.js';
import { moveSignedDocument, moveTemplateDocument } from './move-documents.js';

/** The document of one version of a company's template (an envelope's: the version it was sent with), or null when it has none. */
export async function templateDocumentOf(
  services: Services,
  { templateId, companyId, templateVersion }: { templateId: string; companyId: string; templateVersion: number },
): Promise<StoredDocument | null> {
  const [row] = await services.database.db
    .select({ id: templateDocuments.id, key: templateDocuments.storageKey, size: templateDocuments.size, sha256: templateDocuments.sha256 })
    .from(templateDocuments)
    .where(and(eq(templateDocuments.templateId, templateId), eq(templateDocuments.companyId, companyId), eq(templateDocuments.version, templateVersion)))
    .limit(1);
  if (!row) return null;
  if (row.key && row.size !== null) return { key: row.key, size: row.size, sha256: row.sha256 };
  return (await moveTemplateDocument(services, row.id)).stored;
}

/** Columns a read of an envelope takes to find its finished PDF with `signedDocumentOf`. */
export const signedDocumentColumns = { key: envelopes.signedDocumentKey, size: envelopes.signedDocumentSize, sha256: envelopes.signedDocumentSha256 };

/** The finished PDF of an envelope read with `signedDocumentColumns`, or null while it is not made. */
export async function signedDocumentOf(
  services: Services,
  envelopeId: string,
  row: { key: string | null; size: number | null; sha256: string | null },
): Promise<StoredDocument | null> {
  if (!row.sha256) return null;
  if (row.key && row.size !== null) return { key: row.key, size: row.size, sha256: row.sha256 };
  return (await moveSignedDocument(services, envelopeId)).stored;
}
