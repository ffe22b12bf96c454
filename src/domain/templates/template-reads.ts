/**
 * A template's roles, fields and document as JSON columns of the query that reads the template, so
 * that a template comes with all of its parts in one query, one network round trip. The keys are
 * the drizzle rows' own, so the parts are the rows the rest of the code knows. Each part is read
 * for one version of the template: the one given, else its latest (`templates.version`).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PageSize, templateFields, templateRoles } from '../../data/schema.js';

export type RoleRow = typeof templateRoles.$inferSelect;
export type FieldRow = Omit<typeof templateFields.$inferSelect, 'companyId' | 'templateId'> & { role: string };
export type DocumentSummary = { fileName: string; sha256: string; pages: PageSize[] };

/** The template's latest version, for a read that names none. */
const latestOf = (templateId: SQL) => sql`(select t.version from templates t where t.id = ${templateId})`;

/** The roles of the template whose id `templateId` gives, ordered as the API lists them. */
export const rolesJson = (templateId: SQL, version: SQL = latestOf(templateId)) => sql<RoleRow[]>`(
  select coalesce(json_agg(json_build_object(
    'id', r.id, 'companyId', r.company_id, 'templateId', r.template_id, 'name', r.name, 'type', r.type, 'order', r."order",
    'locked', r.locked, 'recipientName', r.recipient_name, 'recipientEmail', r.recipient_email, 'verification', r.verification
  ) order by r."order", r.name), '[]'::json)
  from template_roles r where r.template_id = ${templateId} and r.version = ${version})`;

/** Its fields, each with its role's name, from the top of the first page down. */
export const fieldsJson = (templateId: SQL, version: SQL = latestOf(templateId)) => sql<FieldRow[]>`(
  select coalesce(json_agg(json_build_object(
    'id', f.id, 'roleId', f.role_id, 'role', r.name, 'type', f.type, 'label', f.label, 'page', f.page,
    'x', f.x, 'y', f.y, 'width', f.width, 'height', f.height, 'required', f.required, 'settings', f.settings
  ) order by f.page, f.y, f.x), '[]'::json)
  from template_fields f join template_roles r on r.id = f.role_id where f.template_id = ${templateId} and f.version = ${version})`;

/** Its document's name, hash and page sizes (never the bytes), or null. */
export const documentJson = (templateId: SQL, version: SQL = latestOf(templateId)) => sql<DocumentSummary | null>`(
  select json_build_object('fileName', d.file_name, 'sha256', d.sha256, 'pages', d.pages)
  from template_documents d where d.template_id = ${templateId} and d.version = ${version})`;
