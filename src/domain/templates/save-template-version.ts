/**
 * Saving a template makes a new version of it: its id stays, its latest version (what the API
 * reads and every new send takes) becomes the new one, and the earlier versions stay as they were,
 * for the envelopes sent with them (their signing page and finished PDF keep that version's
 * document and fields).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { isUniqueViolation } from '../../data/errors.js';
import { auditEvents, templateDocuments, templates } from '../../data/schema.js';
import { DomainError, validationFailed } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { StoredDocument } from '../../ports/document-store.js';
import { templateDocumentOf } from '../documents/stored-documents.js';
import type { CompanyContext } from '../verb-context.js';
import { fieldsOutsidePages } from './fields-on-pages.js';
import { templateNotFound } from './get-template.js';
import { discardTemplateDocument, type StoredTemplateDocument } from './import-template.js';
import { templateChangeActor } from './template-change-actor.js';
import type { TemplateDefinition } from './template-definition.js';
import { settingsOfDefinition, versionRoleAndFieldRows, versionSettingsRow } from './template-version-rows.js';
import { claimUpload } from './abandoned-uploads.js';

/** A new version states the whole template but its id, which stays. */
export type TemplateVersionDefinition = Omit<TemplateDefinition, 'id'>;

export type SaveTemplateVersion = {
  templateId: string;
  definition: TemplateVersionDefinition;
  /**
   * The new version's PDF, already in the store (storeTemplateDocument), with the name it was
   * uploaded under, or the stored document alone (it keeps the current file name); null keeps the
   * current version's document.
   */
  document: StoredTemplateDocument | StoredDocument | null;
};

/**
 * Stores a new version of a company's template and answers its number. The definition is the
 * whole template (settings, roles, fields), checked like an import's, against the new document or
 * the kept one. A refused save (not found, archived, a PDF that does not open, a field off its page,
 * another save of the same version first: 409 conflict) changes nothing and discards the new PDF.
 */
export async function saveTemplateVersion(ctx: CompanyContext, input: SaveTemplateVersion): Promise<number> {
  const fresh = input.document && ('stored' in input.document ? input.document : { fileName: null, stored: input.document });
  try {
    return await saveVersion(ctx, input, fresh);
  } catch (err) {
    if (fresh && err instanceof DomainError) await discardTemplateDocument(ctx, fresh.stored);
    throw err;
  }
}

async function saveVersion(
  ctx: CompanyContext,
  { templateId, definition }: SaveTemplateVersion,
  fresh: { fileName: string | null; stored: StoredDocument } | null,
): Promise<number> {
  const { services, companyId, now } = ctx;
  if (!isUuid(templateId)) throw templateNotFound(templateId);
  const [current] = await services.database.db
    .select({ version: templates.version, fileName: templateDocuments.fileName, pages: templateDocuments.pages })
    .from(templates)
    .leftJoin(templateDocuments, and(eq(templateDocuments.templateId, templates.id), eq(templateDocuments.version, templates.version)))
    .where(and(eq(templates.id, templateId), eq(templates.companyId, companyId), isNull(templates.archivedAt)))
    .limit(1);
  if (!current) throw templateNotFound(templateId);

  const document = fresh ? await freshDocument(ctx, fresh, current.fileName) : await keptDocument(ctx, templateId, current);
  const outside = fieldsOutsidePages(definition, document.pages);
  if (outside.length > 0) throw validationFailed(outside, 'Some fields do not sit inside a page of the document.');

  const version = current.version + 1;
  const actor = templateChangeActor(ctx.actor);
  await services.database
    .atomic((q) => [
      q
        .update(templates)
        // The latest version's settings, which every new send copies; the version's own row keeps them for good.
        .set({
          ...settingsOfDefinition(definition),
          version,
          updatedBy: actor.userId,
          updatedAt: now,
        })
        .where(and(eq(templates.id, templateId), eq(templates.companyId, companyId), eq(templates.version, current.version))),
      // Unique per (template, version): of two saves of the same version, the second fails here.
      versionSettingsRow(q, { companyId, templateId, version, savedAt: now, savedBy: actor.userId }, definition),
      q.insert(templateDocuments).values({
        companyId,
        templateId,
        version,
        fileName: document.fileName,
        storageKey: document.stored.key,
        size: document.stored.size,
        sha256: document.stored.sha256,
        pages: document.pages,
      }),
      ...versionRoleAndFieldRows(q, { companyId, templateId, version }, definition),
      claimUpload(q, { companyId, key: document.stored.key, now }),
      q.insert(auditEvents).values({
        companyId,
        kind: 'template.version_saved',
        actorType: actor.actorType,
        actorId: actor.actorId,
        data: { template_id: templateId, name: definition.name, version, document_sha256: document.stored.sha256 },
        createdAt: now,
      }),
    ])
    .catch((err: unknown) => {
      if (isUniqueViolation(err))
        throw new DomainError('conflict', 'The template was saved again meanwhile: reload it and save again.', { template_id: templateId });
      throw err;
    });
  return version;
}

type VersionDocument = { fileName: string; stored: StoredDocument; pages: { width: number; height: number }[] };

/** A new PDF must open; it takes the name it was uploaded under, else the current one's. */
async function freshDocument(
  ctx: CompanyContext,
  fresh: { fileName: string | null; stored: StoredDocument },
  currentName: string | null,
): Promise<VersionDocument> {
  const fileName = fresh.fileName ?? currentName ?? 'document.pdf';
  const pages = await ctx.services.pdf.pageSizes(fresh.stored.key);
  if (!pages || pages.length === 0) throw new DomainError('invalid_document', 'The document is not a PDF that can be read.', { file_name: fileName });
  return { fileName, stored: fresh.stored, pages };
}

/** The current version's document, kept: the new version's row names the same stored bytes. */
async function keptDocument(
  ctx: CompanyContext,
  templateId: string,
  current: { version: number; fileName: string | null; pages: { width: number; height: number }[] | null },
): Promise<VersionDocument> {
  const stored = await templateDocumentOf(ctx.services, { templateId, companyId: ctx.companyId, templateVersion: current.version });
  if (!stored || !current.fileName || !current.pages) {
    throw validationFailed([{ path: 'document', message: 'The template has no document to keep: send one.' }]);
  }
  return { fileName: current.fileName, stored, pages: current.pages };
}
