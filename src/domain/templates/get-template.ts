import { and, eq, isNull, sql } from 'drizzle-orm';
import { templates, templateVersions } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { CompanyReadContext } from '../read-context.js';
import { type FieldPlacement, placementOf } from './field-placement.js';
import { documentJson, fieldsJson, rolesJson } from './template-reads.js';
import { type TemplateSummary, toTemplateSummary } from './template-record.js';

export type TemplateField = FieldPlacement & { role: string };

export type TemplateDetail = TemplateSummary & {
  document: { file_name: string; sha256: string; page_count: number; pages: { width: number; height: number }[] } | null;
  fields: TemplateField[];
};

/** A template as one of its versions has it, with that version's number. */
export type TemplateVersionDetail = TemplateDetail & { version: number };

export const templateNotFound = (id: string) => new DomainError('template_not_found', 'No template with that id exists in this company.', { template_id: id });

/** GET /v1/templates/{id}: one template's latest version with roles, settings and field layout, in one query; never the PDF bytes. */
export async function getTemplate(ctx: CompanyReadContext, { templateId }: { templateId: string }): Promise<TemplateDetail> {
  const { version: _latest, ...detail } = await readTemplate(ctx, templateId);
  return detail;
}

/**
 * One version of a company's template (its latest when none is named), in one query. An archived
 * template, another company's, an id that is not one and a version it never had are all not found.
 */
export async function readTemplate({ services, companyId }: CompanyReadContext, templateId: string, version?: number): Promise<TemplateVersionDetail> {
  if (!isUuid(templateId) || (version !== undefined && !(Number.isSafeInteger(version) && version >= 1))) throw templateNotFound(templateId);
  const id = sql`${templates.id}`;
  const which = version === undefined ? sql`${templates.version}` : sql`${version}::int`;
  const [row] = await services.database.db
    .select({
      template: templates,
      settings: templateVersions,
      roles: rolesJson(id, which),
      fields: fieldsJson(id, which),
      document: documentJson(id, which),
    })
    .from(templates)
    .leftJoin(templateVersions, and(eq(templateVersions.templateId, templates.id), sql`${templateVersions.version} = ${which}`))
    .where(and(eq(templates.id, templateId), eq(templates.companyId, companyId), isNull(templates.archivedAt)))
    .limit(1);
  // Every saved version has a document row, so a version without one was never saved.
  if (!row || (version !== undefined && !row.document)) throw templateNotFound(templateId);
  const { template, settings, roles, fields, document } = row;
  // The version's own settings, as it was saved; the template row (the latest's) only when none was kept.
  const named = version !== undefined && version !== template.version;
  const asSaved = settings ? { ...template, ...savedSettings(settings), updatedAt: named ? settings.savedAt : template.updatedAt } : template;
  return {
    ...toTemplateSummary(asSaved, roles),
    version: version ?? template.version,
    document: document ? { file_name: document.fileName, sha256: document.sha256, page_count: document.pages.length, pages: document.pages } : null,
    fields: fields.map((field) => ({ role: field.role, ...placementOf(field) })),
  };
}

/** A version row's settings, in the template row's columns. */
function savedSettings(row: typeof templateVersions.$inferSelect) {
  const { name, emailSubject, emailMessage, expiryDays, reminders, signingOrder, shareSigningLinks, language } = row;
  return { name, emailSubject, emailMessage, expiryDays, reminders, signingOrder, shareSigningLinks, language };
}
