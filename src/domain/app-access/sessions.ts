/**
 * Sessions of the company application: a person signed in, kept in the database. The cookie holds
 * a random id; the row keeps its SHA-256. A session ends on sign-out, after 12 idle hours, after
 * 7 days, and on the very next request after its user is deactivated, removed or given another
 * role (the row keeps the role it began with). A person who is a user of several companies has a
 * session without a user until they choose one, and may switch later without signing in again.
 */
import { and, eq, sql } from 'drizzle-orm';
import { appSessions, auditEvents, brandSettings, companies, type UserRole, users } from '../../data/schema.js';
import type { Db } from '../../data/database.js';
import type { AuditKind } from '../../data/event-kinds.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import { isUuid } from '../../lib/ids.js';
import type { VerbContext } from '../verb-context.js';
import { activeMemberships, companyDisplayName, type Membership } from './people.js';
import { isSecretShaped, newSecret, secretHash } from './secrets.js';

export const SESSION_IDLE_MS = 12 * 3600 * 1000;
export const SESSION_MAX_MS = 7 * 24 * 3600 * 1000;
/** How stale `last_seen_at` may be before a request writes it again: not every page view needs a write. */
const SEEN_GRANULARITY_MS = 60 * 1000;

/** A session as a page sees it: the person, and the user they act as (null until they choose a company). */
export type AppSession = {
  id: string;
  /** The cookie's value: what the session's forms are bound to. */
  secret: string;
  email: string;
  user: { id: string; name: string; role: UserRole; companyId: string; companyName: string } | null;
  /** How many companies the person is an active user of: a choice to offer when more than one. */
  memberships: number;
};

/** Why a session stopped: the page then asks to sign in again. */
export type SessionEnd = 'expired' | 'user_deactivated' | 'user_removed' | 'role_changed';

export type SessionRead = { kind: 'active'; session: AppSession } | { kind: 'ended'; reason: SessionEnd } | { kind: 'none' };

/**
 * Starts a session for the address a spent link signed in: bound to its user when the address is
 * an active user of exactly one company, else waiting for the person's choice. An invitation's
 * link names its user: the session is that user's, in the company that invited them. Null when it
 * is no active user any more.
 */
export async function startSession(
  ctx: VerbContext,
  email: string,
  userId: string | null = null,
): Promise<{ secret: string; memberships: Membership[] } | null> {
  const all = await activeMemberships(ctx.services, email);
  const memberships = userId === null ? all : all.filter((membership) => membership.userId === userId);
  if (memberships.length === 0) return null;
  const secret = newSecret();
  const only = memberships.length === 1 ? memberships[0] : undefined;
  const id = crypto.randomUUID();
  const row = {
    id,
    secretHash: await secretHash(secret),
    email: email.toLowerCase(),
    userId: only?.userId ?? null,
    companyId: only?.companyId ?? null,
    role: only?.role ?? null,
    createdAt: ctx.now,
    lastSeenAt: ctx.now,
  };
  await ctx.services.database.atomic((q) => [q.insert(appSessions).values(row), ...(only ? [audit(q, ctx, 'user.signed_in', only, id)] : [])]);
  return { secret, memberships };
}

/** The session of a cookie's value, ended on the spot when its time or its user says so. */
export async function readSession(ctx: VerbContext, secret: string): Promise<SessionRead> {
  if (!isSecretShaped(secret)) return { kind: 'none' };
  const { db } = ctx.services.database;
  const [row] = await db
    .select({
      id: appSessions.id,
      email: appSessions.email,
      userId: appSessions.userId,
      companyId: appSessions.companyId,
      role: appSessions.role,
      createdAt: appSessions.createdAt,
      lastSeenAt: appSessions.lastSeenAt,
      userFound: users.id,
      userName: users.name,
      userRole: users.role,
      userActive: users.active,
      companyName: companyDisplayName,
      // In the same read: the shell offers a switch of company when there is one to make.
      memberships: sql<number>`(select count(*) from ${users} as u where lower(u.email) = ${appSessions.email} and u.active)`.mapWith(Number),
    })
    .from(appSessions)
    .leftJoin(users, eq(users.id, appSessions.userId))
    .leftJoin(companies, eq(companies.id, appSessions.companyId))
    .leftJoin(brandSettings, and(eq(brandSettings.companyId, appSessions.companyId), eq(brandSettings.active, true)))
    .where(eq(appSessions.secretHash, await secretHash(secret)))
    .limit(1);
  if (!row) return { kind: 'none' };
  const now = ctx.now.getTime();
  if (now - row.lastSeenAt.getTime() >= SESSION_IDLE_MS || now - row.createdAt.getTime() >= SESSION_MAX_MS) {
    await db.delete(appSessions).where(eq(appSessions.id, row.id));
    return { kind: 'ended', reason: 'expired' };
  }
  if (row.userId !== null && row.companyId !== null) {
    const reason: SessionEnd | null =
      row.userFound === null ? 'user_removed' : !row.userActive ? 'user_deactivated' : row.userRole !== row.role ? 'role_changed' : null;
    if (reason) {
      const who = { userId: row.userId, companyId: row.companyId, email: row.email };
      await ctx.services.database.atomic((q) => [
        q.delete(appSessions).where(eq(appSessions.id, row.id)),
        audit(q, ctx, 'user.session_ended', who, row.id, { reason }),
      ]);
      return { kind: 'ended', reason };
    }
  }
  if (now - row.lastSeenAt.getTime() >= SEEN_GRANULARITY_MS) await db.update(appSessions).set({ lastSeenAt: ctx.now }).where(eq(appSessions.id, row.id));
  const user =
    row.userId !== null && row.companyId !== null && row.userName !== null && row.userRole !== null
      ? { id: row.userId, name: asSingleLine(row.userName), role: row.userRole, companyId: row.companyId, companyName: asSingleLine(row.companyName ?? '') }
      : null;
  return { kind: 'active', session: { id: row.id, secret, email: row.email, user, memberships: row.memberships } };
}

/**
 * Binds the session to one of the person's users (the choice after signing in, or a switch): only
 * an active user with the session's own address. False when `userId` is none of those.
 */
export async function chooseUser(ctx: VerbContext, session: AppSession, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const chosen = (await activeMemberships(ctx.services, session.email)).find((membership) => membership.userId === userId);
  if (!chosen) return false;
  if (session.user?.id === chosen.userId) return true;
  const change = { userId: chosen.userId, companyId: chosen.companyId, role: chosen.role };
  await ctx.services.database.atomic((q) => [
    q.update(appSessions).set(change).where(eq(appSessions.id, session.id)),
    ...(session.user
      ? [
          audit(q, ctx, 'user.signed_out', { userId: session.user.id, companyId: session.user.companyId, email: session.email }, session.id, {
            switched_to: chosen.companyId,
          }),
        ]
      : []),
    audit(q, ctx, 'user.signed_in', chosen, session.id, session.user ? { switched_from: session.user.companyId } : {}),
  ]);
  return true;
}

/** Sign-out: the session is gone, whatever its cookie says later. */
export async function signOut(ctx: VerbContext, session: AppSession): Promise<void> {
  const { user } = session;
  await ctx.services.database.atomic((q) => [
    q.delete(appSessions).where(eq(appSessions.id, session.id)),
    ...(user ? [audit(q, ctx, 'user.signed_out', { userId: user.id, companyId: user.companyId, email: session.email }, session.id)] : []),
  ]);
}

/** The application's audit rows are kept with the company, beside the API's, acted by the user. */
function audit(
  q: Db,
  ctx: VerbContext,
  kind: AuditKind,
  who: { userId: string; companyId: string; email: string },
  sessionId: string,
  data: Record<string, unknown> = {},
) {
  return q.insert(auditEvents).values({
    companyId: who.companyId,
    kind,
    actorType: 'user',
    actorId: who.userId,
    data: { email: who.email, session_id: sessionId, ...data },
    createdAt: ctx.now,
  });
}
