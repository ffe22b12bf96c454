import { lt } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import { verificationCodes } from '../../data/schema.js';
import { HOUR_MS } from './verification-gate.js';

/**
 * A verification code answers for nothing once no limit counts it any more: it can be entered for
 * ten minutes, and the longest look-back of a limit is a day (text-message-limits.ts). Codes are
 * kept twice that, then housekeeping removes them, so that the codes a signer may ask for over an
 * envelope's whole life (up to a year of them) do not pile up; the audit trail keeps each send.
 */
export const CODE_RETENTION_MS = 48 * HOUR_MS;

export async function purgeSpentCodes(db: Db, now: Date): Promise<void> {
  await db.delete(verificationCodes).where(lt(verificationCodes.sentAt, new Date(now.getTime() - CODE_RETENTION_MS)));
}
