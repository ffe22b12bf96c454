import { and, asc, eq } from 'drizzle-orm';
import { templateDocuments, templateFields, templateRoles, templates } from '../../data/schema.js';
import { ApiError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { type FieldPlacement, placementOf } from './field-placement.js';
import { rolesOfTemplates, type TemplateSummary, toTemplateSummary } from './template-record.js';

export type TemplateField = FieldPlacement & { role: string };

export type TemplateDetail = TemplateSummary & {
  document: { file_name: string; sha256: string; page_count: number; pages: { width: number; height: number }[] } | null;
  fields: TemplateField[];
};

export const templateNotFound = (id: string) =>
  new ApiError('template_not_found', 'No template with that id exists in this company.', { template_id: id });

/** GET /v1/templates/{id}: one template with roles, settings and field layout; never the PDF bytes. */
export async function getTemplate(services: Services, companyId: string, templateId: string): Promise<TemplateDetail> {
  if (!isUuid(templateId)) throw templateNotFound(templateId);
  const { db } = services.database;
  const [template] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.companyId, companyId)))
    .limit(1);
  if (!template) throw templateNotFound(templateId);

  const [roles, fields, [document]] = await Promise.all([
    rolesOfTemplates(db, [template.id]),
    db
      .select({ field: templateFields, role: templateRoles.name })
      .from(templateFields)
      .innerJoin(templateRoles, eq(templateRoles.id, templateFields.roleId))
      .where(eq(templateFields.templateId, template.id))
      .orderBy(asc(templateFields.page), asc(templateFields.y), asc(templateFields.x)),
    db
      .select({ fileName: templateDocuments.fileName, sha256: templateDocuments.sha256, pages: templateDocuments.pages })
      .from(templateDocuments)
      .where(eq(templateDocuments.templateId, template.id))
      .limit(1),
  ]);
  return {
    ...toTemplateSummary(template, roles.get(template.id) ?? []),
    document: document
      ? { file_name: document.fileName, sha256: document.sha256, page_count: document.pages.length, pages: document.pages }
      : null,
    fields: fields.map(({ field, role }) => ({ role, ...placementOf(field) })),
  };
}
