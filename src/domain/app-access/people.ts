/**
 * The users an e-mail address is, across companies: a person may be a user of several companies,
 * each its own row of `users`. Addresses are compared without case, as `users` keeps them unique.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { brandSettings, companies, type UserRole, users } from '../../data/schema.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import type { Services } from '../../services.js';

/** One user the person is: the company, as its brand names it, and the user's role there. */
export type Membership = { userId: string; companyId: string; companyName: string; name: string; email: string; role: UserRole };

export const sameAddress = (email: string) => sql`lower(${users.email}) = ${email.toLowerCase()}`;

/** The company's brand display name, else its name: what its people and signers know it by. */
export const companyDisplayName = sql<string>`coalesce(nullif(${brandSettings.displayName}, ''), ${companies.name})`;

/** Every active user with this address, in the order of their companies' names. */
export async function activeMemberships(services: Services, email: string): Promise<Membership[]> {
  const rows = await services.database.db
    .select({ userId: users.id, companyId: users.companyId, companyName: companyDisplayName, name: users.name, email: users.email, role: users.role })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(brandSettings, and(eq(brandSettings.companyId, companies.id), eq(brandSettings.active, true)))
    .where(and(sameAddress(email), eq(users.active, true)))
    .orderBy(asc(companyDisplayName), asc(users.companyId));
  return rows.map((row) => ({ ...row, companyName: asSingleLine(row.companyName) }));
}
