/**
 * Documents kept the old way, as bytea in Postgres, moved into the document store: a row at a
 * time, so no more than one document is held. Each row is put into the store, then keyed and its
 * bytea emptied in one statement guarded on the bytea being still there: two moves of the same row
 * at once both put the same bytes (harmless: a put of the same document twice is one document) and
 * one of them keys the row. Run by `npm run migrate`, at `npm start`'s start, a few rows at a time
 * by the housekeeping cron on the Workers, and by a read that meets a row not moved yet.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { envelopes, templateDocuments } from '../../data/schema.js';
import { MAX_FINISHED_DOCUMENT_BYTES } from '../../ports/document-limits.js';
import type { StoredDocument } from '../../ports/document-store.js';
import type { Services } from '../../services.js';

/** What a move needs: the database and the store (`npm run migrate` has no other service). */
export type Movers = Pick<Services, 'database' | 'documents'>;

/** Moves up to `limit` documents (all of them without one); answers how many rows it moved. */
export async function moveDocuments(services: Movers, { limit = Number.POSITIVE_INFINITY }: { limit?: number } = {}): Promise<{ moved: number }> {
  const { db } = services.database;
  let moved = 0;
  const skipped = { templates: new Set<string>(), envelopes: new Set<string>() };
  while (moved < limit) {
    const [template] = await db
      .select({ id: templateDocuments.id })
      .from(templateDocuments)
      .where(and(isNotNull(templateDocuments.content), skipping(templateDocuments.id, skipped.templates)))
      .limit(1);
    if (template) {
      // A row another run moved first is skipped, not counted: the loop still ends.
      if ((await moveTemplateDocument(services, template.id)).movedHere) moved++;
      else skipped.templates.add(template.id);
      continue;
    }
    const [envelope] = await db
      .select({ id: envelopes.id })
      .from(envelopes)
      .where(and(isNotNull(envelopes.signedDocument), skipping(envelopes.id, skipped.envelopes)))
      .limit(1);
    if (!envelope) break;
    if ((await moveSignedDocument(services, envelope.id)).movedHere) moved++;
    else skipped.envelopes.add(envelope.id);
  }
  return { moved };
}

const skipping = (column: typeof templateDocuments.id | typeof envelopes.id, ids: Set<string>) =>
  ids.size === 0
    ? undefined
    : sql`${column} not in (${sql.join(
        [...ids].map((id) => sql`${id}`),
        sql`, `,
      )})`;

type Moved = { stored: StoredDocument | null; movedHere: boolean };

/** Moves one template's document, if it is still in bytea; answers where it is now. */
export async function moveTemplateDocument(services: Movers, id: string): Promise<Moved> {
  const { db } = services.database;
  const [row] = await db.select({ content: templateDocuments.content }).from(templateDocuments).where(eq(templateDocuments.id, id)).limit(1);
  if (row?.content) {
    const stored = await services.documents.put(row.content, { maxBytes: MAX_FINISHED_DOCUMENT_BYTES });
    const keyed = await db
      .update(templateDocuments)
      .set({ storageKey: stored.key, size: stored.size, content: null })
      .where(and(eq(templateDocuments.id, id), isNotNull(templateDocuments.content)))
      .returning({ id: templateDocuments.id });
    if (keyed.length > 0) return { stored, movedHere: true };
  }
  const [now] = await db
    .select({ key: templateDocuments.storageKey, size: templateDocuments.size, sha256: templateDocuments.sha256 })
    .from(templateDocuments)
    .where(eq(templateDocuments.id, id))
    .limit(1);
  return { stored: now?.key && now.size !== null ? { key: now.key, size: now.size, sha256: now.sha256 } : null, movedHere: false };
}

/** Moves one envelope's finished PDF, if it is still in bytea; answers where it is now. */
export async function moveSignedDocument(services: Movers, envelopeId: string): Promise<Moved> {
  const { db } = services.database;
  const [row] = await db.select({ bytes: envelopes.signedDocument }).from(envelopes).where(eq(envelopes.id, envelopeId)).limit(1);
  if (row?.bytes) {
    const stored = await services.documents.put(row.bytes, { maxBytes: MAX_FINISHED_DOCUMENT_BYTES });
    const keyed = await db
      .update(envelopes)
      .set({ signedDocumentKey: stored.key, signedDocumentSize: stored.size, signedDocument: null })
      .where(and(eq(envelopes.id, envelopeId), isNotNull(envelopes.signedDocument)))
      .returning({ id: envelopes.id });
    if (keyed.length > 0) return { stored, movedHere: true };
  }
  const [now] = await db
    .select({ key: envelopes.signedDocumentKey, size: envelopes.signedDocumentSize, sha256: envelopes.signedDocumentSha256 })
    .from(envelopes)
    .where(eq(envelopes.id, envelopeId))
    .limit(1);
  return { stored: now?.key && now.size !== null && now.sha256 ? { key: now.key, size: now.size, sha256: now.sha256 } : null, movedHere: false };
}
