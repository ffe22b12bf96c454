import { and, eq, sql } from 'drizzle-orm';
import { type UserRole, users } from '../../data/schema.js';
import type { CompanyContext } from '../verb-context.js';

export type UserInput = { name: string; role: UserRole; active: boolean; esign_seat: boolean };
export type User = { id: string; email: string; name: string; role: UserRole; active: boolean; esign_seat: boolean; created_at: string };

/**
 * Adds the user, or changes the one with that e-mail (compared without case). A role or status
 * change applies to the user's API keys on their very next request.
 */
export async function putUser(ctx: CompanyContext, { email, input }: { email: string; input: UserInput }): Promise<{ user: User; created: boolean }> {
  const { services, companyId } = ctx;
  const { db } = services.database;
  const changes = { name: input.name, role: input.role, active: input.active, esignSeat: input.esign_seat };
  const sameUser = and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, email.toLowerCase()));
  // Two tries: an insert that loses a race with another insert finds the row on the second update.
  for (let attempt = 0; attempt < 2; attempt++) {
    const [updated] = await db.update(users).set(changes).where(sameUser).returning();
    if (updated) return { user: toUser(updated), created: false };
    const [inserted] = await db
      .insert(users)
      .values({ companyId, email, ...changes, createdAt: ctx.now })
      .onConflictDoNothing()
      .returning();
    if (inserted) return { user: toUser(inserted), created: true };
  }
  throw new Error('user upsert did not settle');
}

export function toUser(row: typeof users.$inferSelect): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    active: row.active,
    esign_seat: row.esignSeat,
    created_at: row.createdAt.toISOString(),
  };
}
