/**
 * Changes to a user from the company application: the role and the e-signing seat, and
 * deactivating or reactivating. Each is one transaction with its audit rows, and a change that
 * would leave the company without an active owner is refused by the update's own condition, which
 * locks the company's active owners first: of two concurrent demotions of the last two owners,
 * the second waits for the first and then finds no other owner. Sessions of the user end on their
 * next request by themselves when the role or the status changes (sessions.ts compares them).
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AuditKind } from '../../data/event-kinds.js';
import { insertWhen } from '../../data/insert-when.js';
import { auditEvents, type UserRole, users } from '../../data/schema.js';
import type { CompanyContext } from '../verb-context.js';
import type { CompanyUser } from './company-users.js';

export type UserChange = { role: UserRole; esignSeat: boolean; active: boolean };
export type ChangeOutcome = 'changed' | 'unchanged' | 'last_owner';

/**
 * Applies `change` to `user` (read from the same company just before). The change is written only
 * if the user is still as read; the audit rows go with it, one per thing changed.
 */
export async function changeUser(ctx: CompanyContext, user: CompanyUser, change: UserChange): Promise<ChangeOutcome> {
  const records = auditRecords(user, change);
  if (records.length === 0) return 'unchanged';
  const { companyId } = ctx;
  const stillAsRead = and(eq(users.id, user.id), eq(users.companyId, companyId), eq(users.role, user.role), eq(users.active, user.active));
  const [updated] = await ctx.services.database.atomic((q) => [
    q
      .update(users)
      .set({ role: change.role, esignSeat: change.esignSeat, active: change.active })
      .where(and(stillAsRead, keepsAnOwner(companyId, user.id, change)))
      .returning({ id: users.id }),
    ...records.map(([kind, data]) =>
      insertWhen(
        q,
        auditEvents,
        {
          companyId,
          kind,
          actorType: 'user',
          actorId: actorOf(ctx),
          data: { user_id: user.id, email: user.email, ...sessionOf(ctx), ...data },
          createdAt: ctx.now,
        },
        // Only when the update above happened: the user now is as the change made them.
        sql`exists (select 1 from ${users} where ${users.id} = ${user.id} and ${users.role} = ${change.role} and ${users.active} = ${change.active} and ${users.esignSeat} = ${change.esignSeat})`,
      ),
    ),
  ]);
  return (updated as unknown[]).length > 0 ? 'changed' : 'last_owner';
}

/**
 * True when the change leaves an active owner: it keeps this user one, or another active owner
 * remains. The company's active owners are locked in one order first, so that concurrent changes
 * to owners wait for each other and each sees the other's result.
 */
function keepsAnOwner(companyId: string, userId: string, change: UserChange): SQL {
  if (change.role === 'owner' && change.active) return sql`true`;
  return sql`(${users.role} <> 'owner' or not ${users.active} or (
    select count(*) from (
      select o.id from ${users} as o where o.company_id = ${companyId} and o.role = 'owner' and o.active order by o.id for update
    ) as owners where owners.id <> ${userId}
  ) > 0)`;
}

function auditRecords(user: CompanyUser, change: UserChange): [AuditKind, Record<string, unknown>][] {
  const records: [AuditKind, Record<string, unknown>][] = [];
  if (change.role !== user.role) records.push(['user.role_changed', { from: user.role, to: change.role }]);
  if (change.esignSeat !== user.esignSeat) records.push(['user.seat_changed', { from: user.esignSeat, to: change.esignSeat }]);
  if (change.active !== user.active) records.push([change.active ? 'user.reactivated' : 'user.deactivated', {}]);
  return records;
}

const actorOf = (ctx: CompanyContext) => (ctx.actor.kind === 'user' ? ctx.actor.userId : null);
const sessionOf = (ctx: CompanyContext) => (ctx.actor.kind === 'user' ? { session_id: ctx.actor.sessionId } : {});
