import { DomainError } from '../../errors.js';
import type { UserRole } from '../../data/schema.js';
import type { Principal } from './principal.js';

export const scopes = ['templates:read', 'contacts:read', 'contacts:write', 'envelopes:send', 'webhooks:read', 'webhooks:write'] as const;
export type Scope = (typeof scopes)[number];

/** What each user role may do (the table under "Authentication" in docs/api-guide.md); a key's scopes can only narrow this. */
export const rolePermissions: Record<UserRole, readonly Scope[]> = {
  owner: scopes,
  admin: scopes,
  member: ['templates:read', 'contacts:read', 'contacts:write', 'envelopes:send', 'webhooks:read'],
  viewer: ['templates:read', 'contacts:read', 'webhooks:read'],
};

/** A call is allowed only when the key has the scope AND its owner, active, has the permission. */
export function authorize(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new DomainError('insufficient_scope', `This API key lacks the scope ${scope}.`, { required_scope: scope });
  }
  if (!principal.owner.active) {
    throw new DomainError('permission_denied', 'The user who owns this API key is not active.', { required_scope: scope });
  }
  if (!rolePermissions[principal.owner.role].includes(scope)) {
    throw new DomainError('permission_denied', `The ${principal.owner.role} role of the key's owner does not allow ${scope}.`, {
      required_scope: scope,
      role: principal.owner.role,
    });
  }
}
