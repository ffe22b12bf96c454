/**
 * A template's versions, for whoever edits it: each saved version's number, when and by whom it
 * was saved, its settings as saved and its size (roles and fields); and any one version as it was saved.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { templateDocuments, templates, templateVersions } from '../../data/schema.js';
import { isLanguage } from '../../i18n/languages.js';
import { isUuid } from '../../lib/ids.js';
import type { CompanyReadContext } from '../read-context.js';
import { readTemplate, type TemplateVersionDetail, templateNotFound } from './get-template.js';
import type { TemplateSummary } from './template-record.js';

/** A version's settings as it was saved: the template's (TemplateSummary) at that version. */
export type TemplateVersionSettings = Pick<
  TemplateSummary,
  'name' | 'email_subject' | 'email_message' | 'expiry_days' | 'reminders' | 'signing_order' | 'share_signing_links' | 'language'
>;

export type TemplateVersionSummary = TemplateVersionSettings & {
  version: number;
  saved_at: string;
  /** Who saved it, as the audit trail names them: a user of the company (with e-mail), the operator (admin), or the service (system, a seed). */
  saved_by: { type: 'user' | 'admin' | 'system' | 'api_key'; id: string | null; email: string | null };
  role_count: number;
  field_count: number;
};

/** One version of a company's template (not archived), as it was saved; a version it never had is not found. */
export async function getTemplateVersion(ctx: CompanyReadContext, templateId: string, version: number): Promise<TemplateVersionDetail> {
  return readTemplate(ctx, templateId, version);
}

/** The versions of a company's template (not archived), newest first; one query. */
export async function listTemplateVersions(
  { services, companyId }: CompanyReadContext,
  { templateId }: { templateId: string },
): Promise<TemplateVersionSummary[]> {
  if (!isUuid(templateId)) throw templateNotFound(templateId);
  const d = templateDocuments;
  const rows = await services.database.db
    .select({
      version: d.version,
      savedAt: d.createdAt,
      settings: templateVersions,
      latest: templates,
      roleCount: sql<number>`(select count(*)::int from template_roles r where r.template_id = ${d.templateId} and r.version = ${d.version})`,
      fieldCount: sql<number>`(select count(*)::int from template_fields f where f.template_id = ${d.templateId} and f.version = ${d.version})`,
      // The audit row that made the version: an import made version 1 (its row names no version).
      savedBy: sql<{ type: TemplateVersionSummary['saved_by']['type']; id: string | null; email: string | null } | null>`(
        select json_build_object('type', a.actor_type, 'id', a.actor_id, 'email', u.email)
        from audit_events a left join users u on a.actor_type = 'user' and u.id::text = a.actor_id and u.company_id = a.company_id
        where a.company_id = ${d.companyId} and a.kind in ('template.imported', 'template.version_saved')
          and a.data->>'template_id' = ${d.templateId}::text and coalesce((a.data->>'version')::int, 1) = ${d.version}
        order by a.seq desc limit 1)`,
    })
    .from(d)
    .innerJoin(templates, and(eq(templates.id, d.templateId), eq(templates.companyId, d.companyId), isNull(templates.archivedAt)))
    .leftJoin(templateVersions, and(eq(templateVersions.templateId, d.templateId), eq(templateVersions.version, d.version)))
    .where(and(eq(d.templateId, templateId), eq(d.companyId, companyId)))
    .orderBy(desc(d.version));
  if (rows.length === 0) throw templateNotFound(templateId);
  return rows.map((row) => ({
    // A version whose settings were not kept apart (none since they are) reads as the template.
    ...settingsSummary(row.settings ?? row.latest),
    version: row.version,
    saved_at: new Date(row.savedAt).toISOString(),
    saved_by: row.savedBy ?? { type: 'system', id: null, email: null },
    role_count: Number(row.roleCount),
    field_count: Number(row.fieldCount),
  }));
}

function settingsSummary(
  row: Omit<typeof templates.$inferSelect, 'id' | 'version' | 'archivedAt' | 'updatedBy' | 'createdAt' | 'updatedAt' | 'companyId'>,
): TemplateVersionSettings {
  return {
    name: row.name,
    email_subject: row.emailSubject,
    email_message: row.emailMessage,
    expiry_days: row.expiryDays,
    reminders: row.reminders ?? null,
    signing_order: row.signingOrder,
    share_signing_links: row.shareSigningLinks,
    language: isLanguage(row.language) ? row.language : null,
  };
}
