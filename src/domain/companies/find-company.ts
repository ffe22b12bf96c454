import { eq } from 'drizzle-orm';
import { companies } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { CompanyReadContext } from '../read-context.js';

/** The company, or `404 company_not_found` for an unknown or malformed id. */
export async function requireCompany({ services, companyId }: CompanyReadContext) {
  const notFound = new DomainError('company_not_found', 'No company with that id.', { company_id: companyId });
  if (!isUuid(companyId)) throw notFound;
  const [company] = await services.database.db.select().from(companies).where(eq(companies.id, companyId)).limit(1);
  if (!company) throw notFound;
  return company;
}
