/**
 * The application's list of a company's templates: each with its roles, when it last changed and
 * by which user of the company (when a user changed it in the application), and how many
 * envelopes were sent from it. One query: the parts are subqueries of the row.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { templateDocuments, templates } from '../../data/schema.js';
import type { CompanyReadContext } from '../read-context.js';
import { rolesJson } from './template-reads.js';
import { type TemplateSummary, toTemplateSummary } from './template-record.js';

/** More templates than a company keeps in use; the list says when there are more. */
export const TEMPLATES_SHOWN = 200;

export type CompanyTemplate = TemplateSummary & { changedBy: string | null; envelopesSent: number };

// The subqueries name the outer row by its table, which drizzle leaves unqualified.
/** The audit kinds that record a change of a template, whose actor is who changed it last. */
const changeKinds = sql.raw(`('template.imported', 'template.version_saved', 'template.archived')`);

export async function companyTemplates({ services, companyId }: CompanyReadContext): Promise<{ templates: CompanyTemplate[]; more: boolean }> {
  const id = sql`${templates.id}`;
  const rows = await services.database.db
    .select({
      template: templates,
      roles: rolesJson(id),
      changedBy: sql<string | null>`(
        select u.name from audit_events a join users u on u.id::text = a.actor_id and u.company_id = a.company_id
        where a.company_id = templates.company_id and a.actor_type = 'user' and a.kind in ${changeKinds}
          and a.data->>'template_id' = templates.id::text
        order by a.seq desc limit 1)`,
      envelopesSent: sql<number>`(select count(*)::int from envelopes e where e.company_id = templates.company_id and e.template_id = templates.id)`,
    })
    .from(templates)
    // An archived template is no longer the company's to use: it leaves the list.
    .where(and(eq(templates.companyId, companyId), isNull(templates.archivedAt)))
    .orderBy(desc(templates.updatedAt), desc(templates.id))
    .limit(TEMPLATES_SHOWN + 1);
  return {
    templates: rows
      .slice(0, TEMPLATES_SHOWN)
      .map((row) => ({ ...toTemplateSummary(row.template, row.roles), changedBy: row.changedBy, envelopesSent: Number(row.envelopesSent) })),
    more: rows.length > TEMPLATES_SHOWN,
  };
}

/** Where a template of the company keeps its latest PDF, to stream it; null for another company's, an unknown id, an archived one, or none. */
export async function templateDocumentOf({ services, companyId }: CompanyReadContext, { templateId }: { templateId: string }) {
  const [row] = await services.database.db
    .select({ fileName: templateDocuments.fileName, key: templateDocuments.storageKey, size: templateDocuments.size, sha256: templateDocuments.sha256 })
    .from(templateDocuments)
    // The latest version's document, of a template not archived.
    .innerJoin(templates, and(eq(templates.id, templateDocuments.templateId), eq(templates.version, templateDocuments.version), isNull(templates.archivedAt)))
    .where(and(eq(templateDocuments.templateId, templateId), eq(templateDocuments.companyId, companyId)))
    .limit(1);
  if (!row?.key || row.size === null) return null;
  return { fileName: row.fileName, stored: { key: row.key, size: row.size, sha256: row.sha256 } };
}
