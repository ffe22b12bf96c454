/**
 * The users of one company as its owners and administrators see them: the list, and one user by id.
 * Always of the company given, never another's: another company's id reads as an unknown one.
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import { type UserRole, users } from '../../data/schema.js';
import { isUuid } from '../../lib/ids.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import type { CompanyReadContext } from '../read-context.js';

export type CompanyUser = { id: string; name: string; email: string; role: UserRole; esignSeat: boolean; active: boolean; createdAt: Date };

/** The most a list shows: a company of more people pages through it another day. */
export const USERS_SHOWN = 500;

const columns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  esignSeat: users.esignSeat,
  active: users.active,
  createdAt: users.createdAt,
};

const shown = (row: CompanyUser): CompanyUser => ({ ...row, name: asSingleLine(row.name), email: asSingleLine(row.email) });

/** The active first, then by name: one more than shown, so the page can say there are more. */
export async function companyUsers({ services, companyId }: CompanyReadContext): Promise<CompanyUser[]> {
  const rows = await services.database.db
    .select(columns)
    .from(users)
    .where(eq(users.companyId, companyId))
    .orderBy(desc(users.active), asc(users.name), asc(users.email))
    .limit(USERS_SHOWN + 1);
  return rows.map(shown);
}

export async function companyUser({ services, companyId }: CompanyReadContext, id: string): Promise<CompanyUser | null> {
  if (!isUuid(id)) return null;
  const [row] = await services.database.db
    .select(columns)
    .from(users)
    .where(and(eq(users.id, id), eq(users.companyId, companyId)))
    .limit(1);
  return row ? shown(row) : null;
}
