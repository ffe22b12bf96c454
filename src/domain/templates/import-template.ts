import { templateDocuments, templateFields, templateRoles, templates, auditEvents } from '../../data/schema.js';
import { isUniqueViolation } from '../../data/errors.js';
import { DomainError, validationFailed } from '../../errors.js';
import { logError } from '../../lib/log-error.js';
import { MAX_TEMPLATE_DOCUMENT_BYTES } from '../../ports/document-limits.js';
import { type DocumentSource, DocumentTooLarge, type StoredDocument } from '../../ports/document-store.js';
import type { CompanyContext } from '../verb-context.js';
import { settingsOf } from './field-kinds.js';
import { placementOf } from './field-placement.js';
import { fieldsOutsidePages } from './fields-on-pages.js';
import { claimUpload, recordPendingUpload } from './abandoned-uploads.js';
import { getTemplate, type TemplateDetail } from './get-template.js';
import type { TemplateDefinition } from './template-definition.js';
import { settingsOfDefinition, versionSettingsRow } from './template-version-rows.js';

/** The PDF as uploaded: its bytes in memory, or a stream written to the store as it arrives. */
export type TemplateDocument = { fileName: string; bytes: DocumentSource };

/** The PDF once in the document store, with the name it was uploaded under. */
export type StoredTemplateDocument = { fileName: string; stored: StoredDocument };

/** Who the audit trail names as the importer: an operator, the service itself (a seed), or a user in the application. */
export type TemplateImporter = { type: 'admin' | 'system' | 'user'; id?: string };

/**
 * Writes a template's PDF to the document store as its bytes arrive, before the import that
 * checks it: an upload streams through while its form is still being read. Past
 * MAX_TEMPLATE_DOCUMENT_BYTES it is refused with 413 payload_too_large, and the store keeps nothing.
 * A stored PDF is recorded as a pending upload until a template or a version saved from it claims
 * it: one that nothing claims in a day (the builder left without saving) is removed (abandoned-uploads.ts).
 */
export async function storeTemplateDocument(ctx: CompanyContext, document: TemplateDocument): Promise<StoredDocument> {
  const stored = await putTemplateDocument(ctx, document);
  // Recorded as pending until a template claims it; when even that cannot be written (a company
  // that does not exist), the store keeps nothing of it either.
  await recordPendingUpload(ctx, stored).catch(async (err: unknown) => {
    await discardTemplateDocument(ctx, stored);
    throw err;
  });
  return stored;
}

async function putTemplateDocument(ctx: CompanyContext, document: TemplateDocument): Promise<StoredDocument> {
  return ctx.services.documents.put(document.bytes, { maxBytes: MAX_TEMPLATE_DOCUMENT_BYTES }).catch((err: unknown) => {
    if (!(err instanceof DocumentTooLarge)) throw err;
    const limit = `${MAX_TEMPLATE_DOCUMENT_BYTES / 1024 / 1024} MiB`;
    throw new DomainError('payload_too_large', `The document is larger than ${limit}.`, {
      file_name: document.fileName,
      limit,
      max_bytes: MAX_TEMPLATE_DOCUMENT_BYTES,
    });
  });
}

/**
 * Takes back a stored PDF whose import was refused, so that a refusal leaves no bytes in the
 * store (where its key is shared by identical bytes, the store keeps them: see DocumentStore).
 * A failure to take it back leaves an unreferenced document, logged, and does not hide the refusal.
 */
export async function discardTemplateDocument(ctx: CompanyContext, stored: StoredDocument): Promise<void> {
  await ctx.services.documents.discard(stored).catch((err: unknown) => logError(`a refused template's document ${stored.key} was not discarded`, err));
}

/**
 * Stores a template with its PDF, roles and field layout in one transaction, after checking that
 * the PDF (stored first: storeTemplateDocument) opens and that every field sits inside a page of
 * it; Postgres keeps its key, size and hash. A refused import (a PDF that does not open, a field
 * off its page, a taken id) discards the PDF. An error of unknown outcome keeps it: the rows that
 * name it may have been committed.
 */
export async function importTemplate(
  ctx: CompanyContext,
  { definition, document, actor = { type: 'admin' } }: { definition: TemplateDefinition; document: StoredTemplateDocument; actor?: TemplateImporter },
): Promise<TemplateDetail> {
  const templateId = await insertTemplate(ctx, definition, document, actor).catch(async (err: unknown) => {
    if (err instanceof DomainError) await discardTemplateDocument(ctx, document.stored);
    throw err;
  });
  return getTemplate(ctx, { templateId });
}

async function insertTemplate(
  ctx: CompanyContext,
  definition: TemplateDefinition,
  { fileName, stored }: StoredTemplateDocument,
  actor: TemplateImporter,
): Promise<string> {
  const { services, companyId, now } = ctx;
  const pages = await services.pdf.pageSizes(stored.key);
  if (!pages || pages.length === 0) {
    throw new DomainError('invalid_document', 'The document is not a PDF that can be read.', { file_name: fileName });
  }
  const outside = fieldsOutsidePages(definition, pages);
  if (outside.length > 0) throw validationFailed(outside, 'Some fields do not sit inside a page of the document.');

  const templateId = definition.id ?? crypto.randomUUID();
  const roleIds = new Map(definition.roles.map((role) => [role.name, crypto.randomUUID()]));
  const { sha256 } = stored;

  await services.database
    .atomic((q) => [
      q.insert(templates).values({ id: templateId, companyId, ...settingsOfDefinition(definition), createdAt: now, updatedAt: now }),
      versionSettingsRow(q, { companyId, templateId, version: 1, savedAt: now, savedBy: actor.type === 'user' ? (actor.id ?? null) : null }, definition),
      claimUpload(q, { companyId, key: stored.key, now }),
      q.insert(templateDocuments).values({ companyId, templateId, fileName, storageKey: stored.key, size: stored.size, sha256, pages }),
      q.insert(templateRoles).values(
        definition.roles.map((role) => ({
          id: roleIds.get(role.name)!,
          companyId,
          templateId,
          name: role.name,
          type: role.type,
          order: role.order,
          locked: role.locked,
          recipientName: role.recipient?.name ?? null,
          recipientEmail: role.recipient?.email ?? null,
          verification: role.verification ?? 'none',
        })),
      ),
      ...(definition.fields.length > 0
        ? [
            q.insert(templateFields).values(
              definition.fields.map((field) => ({
                companyId,
                templateId,
                roleId: roleIds.get(field.role)!,
                ...placementOf(field),
                settings: settingsOf(field),
              })),
            ),
          ]
        : []),
      q.insert(auditEvents).values({
        companyId,
        kind: 'template.imported',
        actorType: actor.type,
        actorId: actor.id ?? null,
        data: { template_id: templateId, name: definition.name, version: 1, document_sha256: sha256 },
        createdAt: now,
      }),
    ])
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new DomainError('conflict', 'A template with this id already exists.', { template_id: templateId });
      throw err;
    });
  return templateId;
}
