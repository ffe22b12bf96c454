/**
 * Builder uploads nobody saved from, removed inside workerd over the production adapters (drizzle
 * over the Neon driver, R2 behind `DOCUMENTS`): an upload left more than a day goes from the bucket
 * and from its row; one a template was imported from, and one not a day old, stay. The uploads
 * are dated far in the past and swept at that time, so that only this file's rows are ever reached.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pendingUploads } from '../../src/data/schema.js';
import { removeAbandonedUploads } from '../../src/domain/templates/abandoned-uploads.js';
import { bucket, createCompany, importTemplate, pdfOf, services, templateDocumentKey } from './worker-documents.js';

const { db } = services.database;
const LEFT_AT = new Date('2001-05-01T10:00:00.000Z');
const HOUR = 3600 * 1000;

describe('abandoned uploads in workerd', () => {
  it('removes from R2 an upload left more than a day, keeps one a template names and one not a day old', async () => {
    const company = await createCompany();
    const abandoned = await services.documents.put(await pdfOf('Abandoned'), { maxBytes: 1 << 24 });
    const recent = await services.documents.put(await pdfOf('Recent'), { maxBytes: 1 << 24 });
    const templateId = await importTemplate(company, await pdfOf('Saved'));
    const saved = await templateDocumentKey(company, templateId);
    await db.insert(pendingUploads).values([
      { companyId: company.id, storageKey: abandoned.key, createdAt: LEFT_AT },
      { companyId: company.id, storageKey: saved, createdAt: LEFT_AT },
      { companyId: company.id, storageKey: recent.key, createdAt: new Date(LEFT_AT.getTime() + 2 * HOUR) },
    ]);

    expect(await removeAbandonedUploads(services, new Date(LEFT_AT.getTime() + 25 * HOUR))).toBe(1);
    expect(await bucket.head(abandoned.key)).toBeNull();
    expect(await bucket.head(saved)).not.toBeNull();
    expect(await bucket.head(recent.key)).not.toBeNull();
    const left = await db
      .select({ key: pendingUploads.storageKey })
      .from(pendingUploads)
      .where(and(inArray(pendingUploads.storageKey, [abandoned.key, saved, recent.key]), isNull(pendingUploads.claimedAt)));
    expect(left).toEqual([{ key: recent.key }]);

    // The import's own upload was recorded, and claimed in the import's change.
    const imported = await db.select({ claimedAt: pendingUploads.claimedAt }).from(pendingUploads).where(eq(pendingUploads.storageKey, saved));
    expect(imported).toEqual([{ claimedAt: expect.any(Date) }]);
  });
});
