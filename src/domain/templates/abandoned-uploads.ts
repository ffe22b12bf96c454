/**
 * A PDF uploaded in the builder is stored before any template exists, and the person may never
 * save. Each such upload is recorded as pending; saving a template or a version from it claims it;
 * housekeeping removes from the store the ones left unclaimed a day, and their rows. An object is
 * kept whenever anything still names its key: a template version, a finished envelope, or another
 * upload still pending (stores that key documents by their SHA-256 share one object between
 * identical uploads).
 */
import { and, eq, gte, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db, Statement } from '../../data/database.js';
import { envelopes, pendingUploads, templateDocuments } from '../../data/schema.js';
import { logError } from '../../lib/log-error.js';
import type { StoredDocument } from '../../ports/document-store.js';
import type { Services } from '../../services.js';
import type { CompanyContext } from '../verb-context.js';

/** How long an upload waits for its template: the builder's page is rarely left open longer. */
export const ABANDONED_AFTER_MS = 24 * 3600 * 1000;

/** Uploads looked at per housekeeping run: a run stays short, and the next one takes the rest. */
const REMOVED_PER_RUN = 100;

/** Records a stored template PDF as pending, so that it is removed if no template is ever saved from it. */
export async function recordPendingUpload(ctx: CompanyContext, stored: StoredDocument): Promise<void> {
  await ctx.services.database.db.insert(pendingUploads).values({ companyId: ctx.companyId, storageKey: stored.key, createdAt: ctx.now });
}

/** Marks the uploads of this document claimed, in the change that saves the template naming it. */
export function claimUpload(q: Db, { companyId, key, now }: { companyId: string; key: string; now: Date }): Statement {
  return q
    .update(pendingUploads)
    .set({ claimedAt: now })
    .where(and(eq(pendingUploads.companyId, companyId), eq(pendingUploads.storageKey, key), isNull(pendingUploads.claimedAt)));
}

/**
 * Removes from the store the uploads left unclaimed past ABANDONED_AFTER_MS that nothing names,
 * then their rows, and the rows of claimed uploads as old (their documents belong to templates
 * now). A document that cannot be removed keeps its row, and the next run tries again.
 */
export async function removeAbandonedUploads(services: Services, now: Date): Promise<number> {
  const { db } = services.database;
  const before = new Date(now.getTime() - ABANDONED_AFTER_MS);
  await db.delete(pendingUploads).where(and(isNotNull(pendingUploads.claimedAt), lt(pendingUploads.createdAt, before)));
  const abandoned = await db
    .select({ id: pendingUploads.id, key: pendingUploads.storageKey })
    .from(pendingUploads)
    .where(and(isNull(pendingUploads.claimedAt), lt(pendingUploads.createdAt, before)))
    .limit(REMOVED_PER_RUN);
  if (abandoned.length === 0) return 0;
  const keys = [...new Set(abandoned.map((upload) => upload.key))];
  const kept = await keysInUse(db, keys, before);
  const removed: string[] = [];
  for (const key of keys.filter((key) => !kept.has(key))) {
    await services.documents.delete(key).then(
      () => removed.push(key),
      (err: unknown) => logError(`an abandoned upload ${key} was not removed from the store; housekeeping tries again`, err),
    );
  }
  const done = abandoned.filter((upload) => kept.has(upload.key) || removed.includes(upload.key)).map((upload) => upload.id);
  if (done.length > 0) await db.delete(pendingUploads).where(inArray(pendingUploads.id, done));
  return removed.length;
}

/** Of these keys, those a template version, an envelope or an upload not yet abandoned still names. */
async function keysInUse(db: Db, keys: string[], before: Date): Promise<Set<string>> {
  const [versions, finished, pending] = await Promise.all([
    db.selectDistinct({ key: templateDocuments.storageKey }).from(templateDocuments).where(inArray(templateDocuments.storageKey, keys)),
    db.selectDistinct({ key: envelopes.signedDocumentKey }).from(envelopes).where(inArray(envelopes.signedDocumentKey, keys)),
    db
      .selectDistinct({ key: pendingUploads.storageKey })
      .from(pendingUploads)
      .where(and(inArray(pendingUploads.storageKey, keys), or(isNotNull(pendingUploads.claimedAt), gte(pendingUploads.createdAt, before)))),
  ]);
  return new Set([...versions, ...finished, ...pending].map((row) => row.key).filter((key): key is string => key !== null));
}
