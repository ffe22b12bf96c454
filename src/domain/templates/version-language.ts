/**
 * The languages an envelope's signers are spoken to in: its template version's (null: none set)
 * and the company's. The version is the one the envelope was sent with, read from its immutable
 * row rather than copied onto the envelope: the envelope already names its version, and a save
 * of the template, whatever language it sets, leaves that row as it was.
 */
import { and, eq } from 'drizzle-orm';
import { brandSettings, companies, templateVersions } from '../../data/schema.js';
import type { Db } from '../../data/database.js';

export type EnvelopeLanguages = { template: string | null; company: string | null };

/** One query: the company's active brand beside the envelope's template version. */
export async function envelopeLanguages(db: Db, envelope: { companyId: string; templateId: string; templateVersion: number }): Promise<EnvelopeLanguages> {
  const [found] = await db
    .select({ template: templateVersions.language, company: brandSettings.language })
    .from(companies)
    .leftJoin(brandSettings, and(eq(brandSettings.companyId, companies.id), eq(brandSettings.active, true)))
    .leftJoin(
      templateVersions,
      and(
        eq(templateVersions.templateId, envelope.templateId),
        eq(templateVersions.version, envelope.templateVersion),
        eq(templateVersions.companyId, companies.id),
      ),
    )
    .where(eq(companies.id, envelope.companyId))
    .limit(1);
  return found ?? { template: null, company: null };
}
