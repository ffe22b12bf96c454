import { and, eq, sql } from 'drizzle-orm';
import { templates } from '../../data/schema.js';
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

export const templateNotFound = (id: string) => new DomainError('template_not_found', 'No template with that id exists in this company.', { template_id: id });

/** GET /v1/templates/{id}: one template with roles, settings and field layout, in one query; never the PDF bytes. */
export async function getTemplate({ services, companyId }: CompanyReadContext, { templateId }: { templateId: string }): Promise<TemplateDetail> {
  if (!isUuid(templateId)) throw templateNotFound(templateId);
  const id = sql`${templates.id}`;
  const [row] = await services.database.db
    .select({ template: templates, roles: rolesJson(id), fields: fieldsJson(id), document: documentJson(id) })
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.companyId, companyId)))
    .limit(1);
  if (!row) throw templateNotFound(templateId);
  const { template, roles, fields, document } = row;
  return {
    ...toTemplateSummary(template, roles),
    document: document ? { file_name: document.fileName, sha256: document.sha256, page_count: document.pages.length, pages: document.pages } : null,
    fields: fields.map((field) => ({ role: field.role, ...placementOf(field) })),
  };
}
