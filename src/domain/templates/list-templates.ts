import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { templates } from '../../data/schema.js';
import type { CompanyReadContext, PageRequest } from '../read-context.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';
import { rolesJson } from './template-reads.js';
import { type TemplateSummary, toTemplateSummary } from './template-record.js';

/** GET /v1/templates: the company's templates but the archived, newest first, each its latest version's roles but no field layout: one query. */
export async function listTemplates({ services, companyId }: CompanyReadContext, { page, perPage }: PageRequest): Promise<Page<TemplateSummary>> {
  const { db } = services.database;
  const mine = and(eq(templates.companyId, companyId), isNull(templates.archivedAt));
  const rows = await db
    .select({ template: templates, roles: rolesJson(sql`${templates.id}`, sql`${templates.version}`), total: totalOfAll() })
    .from(templates)
    .where(mine)
    .orderBy(desc(templates.createdAt), desc(templates.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  const toRecord = (row: (typeof rows)[number]) => toTemplateSummary(row.template, row.roles);
  return pageWithTotal(rows, toRecord, page, perPage, () => db.select({ total: count() }).from(templates).where(mine));
}
