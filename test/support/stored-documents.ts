/**
 * Documents as the tests read them back: from the stack's document store, by the key a row keeps.
 */
import { eq } from 'drizzle-orm';
import { envelopes, templateDocuments } from '../../src/data/schema.js';
import { readWholeDocument } from '../../src/lib/whole-document.js';
import type { DocumentStore } from '../../src/ports/document-store.js';
import type { Services } from '../../src/services.js';

/** A stored document's bytes; fails the test when the store has no such document. */
export async function storedBytes(documents: DocumentStore, key: string): Promise<Uint8Array> {
  const bytes = await readWholeDocument(documents, key);
  if (!bytes) throw new Error(`No document ${key} in the store.`);
  return bytes;
}

/** An envelope's finished PDF, or null while it is not made. */
export async function finishedPdf(services: Services, envelopeId: string): Promise<Uint8Array | null> {
  const [row] = await services.database.db.select({ key: envelopes.signedDocumentKey }).from(envelopes).where(eq(envelopes.id, envelopeId));
  return row?.key ? storedBytes(services.documents, row.key) : null;
}

/** A template's PDF, or null when it has none. */
export async function templatePdf(services: Services, templateId: string): Promise<Uint8Array | null> {
  const [row] = await services.database.db
    .select({ key: templateDocuments.storageKey })
    .from(templateDocuments)
    .where(eq(templateDocuments.templateId, templateId));
  return row?.key ? storedBytes(services.documents, row.key) : null;
}
