import { lt, or } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import { appSessions, signInLinks } from '../../data/schema.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from './sessions.js';

/** A sign-in link is kept a day past its 15 minutes, for whoever looks into a sign-in, then removed. */
export const SIGN_IN_LINK_RETENTION_MS = 24 * 3600 * 1000;

/**
 * Removes what can no longer sign anyone in: links a day past their time, and sessions past their
 * idle or absolute end that nobody came back to (one that is read again ends itself there). Run by
 * housekeeping, so that links asked for and sessions left open do not pile up.
 */
export async function purgeEndedAccess(db: Db, now: Date): Promise<void> {
  const at = now.getTime();
  await Promise.all([
    db.delete(signInLinks).where(lt(signInLinks.expiresAt, new Date(at - SIGN_IN_LINK_RETENTION_MS))),
    db.delete(appSessions).where(or(lt(appSessions.lastSeenAt, new Date(at - SESSION_IDLE_MS)), lt(appSessions.createdAt, new Date(at - SESSION_MAX_MS)))),
  ]);
}
