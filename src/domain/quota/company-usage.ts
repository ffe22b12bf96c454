/**
 * A company's usage of its plan in the current period (a calendar month, UTC): the API signature
 * requests sent of its allowance, when the allowance renews, and the sends refused for quota or
 * by the send rate limit. The sends are the database's (every committed send is an envelope, the
 * count the quota is rebuilt from); the refusals are the send limits' own count, which the step
 * that refused each kept (src/ports/send-limits.ts). Both are read at once: one wave.
 */
import { eq } from 'drizzle-orm';
import { companies } from '../../data/schema.js';
import { logError } from '../../lib/log-error.js';
import { quotaPeriod, type SendRefusals } from '../../ports/send-limits.js';
import type { CompanyReadContext } from '../read-context.js';
import { sendsInPeriod } from './sends-in-period.js';

export type CompanyUsage = {
  /** `YYYY-MM`. */
  period: string;
  used: number;
  allowance: number;
  /** The first instant of the next period, when the allowance starts again. */
  renewsAt: Date;
  /** Null while the send limits cannot be reached: the page says so rather than failing. */
  refused: SendRefusals | null;
};

export async function companyUsage({ services, companyId, now }: CompanyReadContext): Promise<CompanyUsage> {
  const period = quotaPeriod(now);
  const [allowance, used, refused] = await Promise.all([
    services.database.db
      .select({ allowance: companies.apiSignatureRequestsPerPeriod })
      .from(companies)
      .where(eq(companies.id, companyId))
      .limit(1)
      .then(([row]) => row?.allowance ?? 0),
    sendsInPeriod(services.database.db, companyId, period),
    services.sendLimits.refusals(companyId, period).catch((err: unknown) => {
      logError("a company's refused sends could not be read for its usage page", err);
      return null;
    }),
  ]);
  return { period, used, allowance, renewsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)), refused };
}
