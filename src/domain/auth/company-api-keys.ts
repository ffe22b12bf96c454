/**
 * A company's API keys as its owners and administrators see them in the application: who owns
 * each, its scopes, when and from where it was last used, whether it still works. The prefix only:
 * the key itself is shown once, by the verb that made it, and its hash never leaves the database.
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import { apiKeys, users } from '../../data/schema.js';
import { isApiKeyId } from '../../lib/ids.js';
import type { CompanyReadContext } from '../read-context.js';
import type { Scope } from './scopes.js';

export type CompanyApiKey = {
  id: string;
  name: string | null;
  prefix: string;
  owner: { name: string; email: string };
  scopes: Scope[];
  status: 'active' | 'revoked';
  createdAt: Date;
  lastUsed: { at: Date; client: string | null } | null;
};

/** The most a list shows; a company with more is shown its newest (the page says so). */
export const KEYS_SHOWN = 200;

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  ownerName: users.name,
  ownerEmail: users.email,
  scopes: apiKeys.scopes,
  revokedAt: apiKeys.revokedAt,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  lastUsedIp: apiKeys.lastUsedIp,
};

type Row = {
  id: string;
  name: string | null;
  prefix: string;
  ownerName: string;
  ownerEmail: string;
  scopes: string[];
  revokedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
};

const toKey = (row: Row): CompanyApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  owner: { name: row.ownerName, email: row.ownerEmail },
  scopes: row.scopes as Scope[],
  status: row.revokedAt ? 'revoked' : 'active',
  createdAt: row.createdAt,
  lastUsed: row.lastUsedAt ? { at: row.lastUsedAt, client: row.lastUsedIp } : null,
});

/** The company's keys, newest first, the active before the revoked. */
export async function companyApiKeys({ services, companyId }: CompanyReadContext): Promise<CompanyApiKey[]> {
  const rows = await services.database.db
    .select(columns)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.ownerUserId))
    .where(eq(apiKeys.companyId, companyId))
    .orderBy(asc(apiKeys.revokedAt), desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(KEYS_SHOWN + 1);
  return rows.map(toKey);
}

/** One key of the company, or null: another company's key is as unknown as a key that never was. */
export async function companyApiKey({ services, companyId }: CompanyReadContext, id: string): Promise<CompanyApiKey | null> {
  if (!isApiKeyId(id)) return null;
  const [row] = await services.database.db
    .select(columns)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.ownerUserId))
    .where(and(eq(apiKeys.id, id), eq(apiKeys.companyId, companyId)))
    .limit(1);
  return row ? toKey(row) : null;
}

/** The users who may own a new key: the company's active ones, by name. */
export async function possibleKeyOwners({ services, companyId }: CompanyReadContext): Promise<{ id: string; name: string; email: string }[]> {
  return services.database.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.active, true)))
    .orderBy(asc(users.name), asc(users.email));
}
