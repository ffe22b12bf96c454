import { and, eq } from 'drizzle-orm';
import { apiKeys, users } from '../../data/schema.js';
import type { Services } from '../../services.js';
import type { TokenClaims } from './access-tokens.js';
import type { Principal } from './principal.js';
import type { Scope } from './scopes.js';

/**
 * The key and its owner as they are now, or null when the key was revoked or rotated since the
 * token was issued. Read on every request, so revocation and role changes apply at once.
 */
export async function loadPrincipal(services: Services, claims: TokenClaims): Promise<Principal | null> {
  const [row] = await services.database.db
    .select({
      scopes: apiKeys.scopes,
      version: apiKeys.version,
      revokedAt: apiKeys.revokedAt,
      ownerId: users.id,
      ownerEmail: users.email,
      ownerRole: users.role,
      ownerActive: users.active,
      ownerEsignSeat: users.esignSeat,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.ownerUserId))
    .where(and(eq(apiKeys.id, claims.apiKeyId), eq(apiKeys.companyId, claims.companyId)))
    .limit(1);
  if (!row || row.revokedAt || row.version !== claims.keyVersion) return null;
  return {
    companyId: claims.companyId,
    apiKeyId: claims.apiKeyId,
    scopes: row.scopes as Scope[],
    owner: { id: row.ownerId, email: row.ownerEmail, role: row.ownerRole, active: row.ownerActive, esignSeat: row.ownerEsignSeat },
  };
}
