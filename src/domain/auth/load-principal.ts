import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
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
  const [row] = await keyLookup(services.database.db).execute({ apiKeyId: claims.apiKeyId, companyId: claims.companyId });
  if (!row || row.revokedAt || row.version !== claims.keyVersion) return null;
  return {
    companyId: claims.companyId,
    apiKeyId: claims.apiKeyId,
    scopes: row.scopes as Scope[],
    owner: { id: row.ownerId, email: row.ownerEmail, role: row.ownerRole, active: row.ownerActive, esignSeat: row.ownerEsignSeat },
  };
}

// Every request makes this query: it is built once per database, not once per request.
const prepared = new WeakMap<Db, ReturnType<typeof prepareKeyLookup>>();
function keyLookup(db: Db) {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepareKeyLookup(db)));
  return query;
}

function prepareKeyLookup(db: Db) {
  return db
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
    .where(and(eq(apiKeys.id, sql.placeholder('apiKeyId')), eq(apiKeys.companyId, sql.placeholder('companyId'))))
    .limit(1)
    .prepare('key_lookup');
}
