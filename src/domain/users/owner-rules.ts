/**
 * Who may touch the owner role. Owners and administrators both manage users, but an owner holds
 * the company itself (its billing, its last word): an administrator who could make themselves or
 * a friend owner, or demote or deactivate an owner, would hold it too. So only an owner grants the
 * owner role, takes it away, or changes an owner's user at all; an administrator manages
 * administrators, members and viewers. And nobody, owner or not, leaves the company without an
 * active owner (change-user.ts checks that in the change's own statement).
 */
import type { UserRole } from '../../data/schema.js';

/** Whether `actor` may act on a user whose role is `target` (null when making a new one), giving them `given`. */
export function mayTouchOwners(actor: UserRole, target: UserRole | null, given: UserRole): boolean {
  if (actor === 'owner') return true;
  return target !== 'owner' && given !== 'owner';
}
