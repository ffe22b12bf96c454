import { count, desc, eq } from 'drizzle-orm';
import { templates } from '../../data/schema.js';
import type { Services } from '../../services.js';
import { type Page, pageOffset, toPage } from '../shared/pagination.js';
import { rolesOfTemplates, type TemplateSummary, toTemplateSummary } from './template-record.js';

/** GET /v1/templates: the company's templates, newest first, with roles but no field layout. */
export async function listTemplates(
  services: Services,
  companyId: string,
  page: number,
  perPage: number,
): Promise<Page<TemplateSummary>> {
  const { db } = services.database;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(templates)
      .where(eq(templates.companyId, companyId))
      .orderBy(desc(templates.createdAt), desc(templates.id))
      .limit(perPage)
      .offset(pageOffset(page, perPage)),
    db.select({ total: count() }).from(templates).where(eq(templates.companyId, companyId)),
  ]);
  const roles = await rolesOfTemplates(db, rows.map((row) => row.id));
  const data = rows.map((row) => toTemplateSummary(row, roles.get(row.id) ?? []));
  return toPage(data, totals?.total ?? 0, page, perPage);
}
