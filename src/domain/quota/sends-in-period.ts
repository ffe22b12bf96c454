import { and, count, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import { envelopes } from '../../data/schema.js';

/**
 * Envelopes a company sent in a `YYYY-MM` period (UTC): the quota it has used, as the database
 * records it. Every committed send is an envelope, so the quota counters are rebuilt from this.
 */
export async function sendsInPeriod(db: Db, companyId: string, period: string): Promise<number> {
  const start = new Date(`${period}-01T00:00:00.000Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const [row] = await db
    .select({ sent: count() })
    .from(envelopes)
    .where(and(eq(envelopes.companyId, companyId), gte(envelopes.createdAt, start), lt(envelopes.createdAt, end)));
  return row?.sent ?? 0;
}
