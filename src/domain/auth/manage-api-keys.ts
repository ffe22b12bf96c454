import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../data/database.js';
import { isUniqueViolation } from '../../data/errors.js';
import { insertWhen } from '../../data/insert-when.js';
import type { AuditKind } from '../../data/event-kinds.js';
import { apiKeys, auditEvents, users } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isApiKeyId, uuidFromName } from '../../lib/ids.js';
import type { CompanyContext, VerbContext } from '../verb-context.js';
import { displayPrefix, generateApiKey, hashApiKey, newApiKeyId } from './api-key-format.js';
import type { Scope } from './scopes.js';

export type NewApiKey = {
  owner: string;
  scopes: Scope[];
  name?: string | null | undefined;
  /**
   * The owner as the caller already read them from the company's users (the application's form
   * offers those): the verb then does not look them up again by `owner`.
   */
  knownOwner?: { id: string; email: string } | undefined;
  /** A seed may bring its own id and plain key (dev and test only); otherwise both are generated. */
  id?: string | undefined;
  key?: string | undefined;
};

export type ApiKeyRecord = { id: string; name: string | null; prefix: string; owner: string; scopes: Scope[]; created_at: string };

/** The row names who acted: a user of the company at the application, else the operator (the admin API, a seed). */
const auditRow = (ctx: VerbContext, companyId: string, kind: Extract<AuditKind, `api_key.${string}`>, apiKeyId: string) => {
  const { actor } = ctx;
  const by =
    actor.kind === 'user'
      ? { actorType: 'user' as const, actorId: actor.userId, data: { api_key_id: apiKeyId, session_id: actor.sessionId } }
      : { actorType: 'admin' as const, actorId: null, data: { api_key_id: apiKeyId } };
  return { id: crypto.randomUUID(), companyId, kind, ...by, createdAt: ctx.now };
};
const audit = (q: Db, ctx: VerbContext, companyId: string, kind: Extract<AuditKind, `api_key.${string}`>, apiKeyId: string) =>
  q.insert(auditEvents).values(auditRow(ctx, companyId, kind, apiKeyId));

/** Creates a key for a user of the company. The plain key is returned here and never again. */
export async function createApiKey(ctx: CompanyContext, input: NewApiKey): Promise<ApiKeyRecord & { key: string }> {
  const { services, companyId, now } = ctx;
  const [owner] = input.knownOwner
    ? [input.knownOwner]
    : await services.database.db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, input.owner.toLowerCase())))
        .limit(1);
  if (!owner) throw new DomainError('user_not_found', 'The owner must be a user of the company.', { owner: input.owner });

  const key = input.key ?? generateApiKey(services.config.keyEnvironment);
  const id = input.id ?? newApiKeyId();
  const scopes = [...new Set(input.scopes)];
  const keyHash = await hashApiKey(key);
  await services.database
    .atomic((q) => [
      q.insert(apiKeys).values({ id, companyId, ownerUserId: owner.id, name: input.name ?? null, prefix: displayPrefix(key), keyHash, scopes, createdAt: now }),
      audit(q, ctx, companyId, 'api_key.created', id),
    ])
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new DomainError('conflict', 'An API key with this id or value already exists.', { api_key_id: id });
      throw err;
    });
  return { id, key, name: input.name ?? null, prefix: displayPrefix(key), owner: owner.email, scopes, created_at: now.toISOString() };
}

const keyNotFound = (id: string) => new DomainError('api_key_not_found', 'No active API key with that id.', { api_key_id: id });

/** The company of a key that exists and is not revoked, or `404 api_key_not_found`. */
async function activeKeyCompany({ services }: VerbContext, apiKeyId: string): Promise<string> {
  if (!isApiKeyId(apiKeyId)) throw keyNotFound(apiKeyId);
  const [key] = await services.database.db
    .select({ companyId: apiKeys.companyId })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, apiKeyId), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!key) throw keyNotFound(apiKeyId);
  return key.companyId;
}

/**
 * A change of an active key of the company, in one batch: the update, and its audit row only if
 * the update took (a key revoked in the meantime changes nothing and records nothing). Answers
 * whether it took.
 */
async function changeActiveKey(
  ctx: VerbContext,
  companyId: string,
  apiKeyId: string,
  change: { set: PgUpdateSetSource<typeof apiKeys>; kind: 'api_key.rotated' | 'api_key.revoked'; took: SQL; rowId?: string },
): Promise<boolean> {
  const row = { ...auditRow(ctx, companyId, change.kind, apiKeyId), ...(change.rowId ? { id: change.rowId } : {}) };
  const [updated] = await ctx.services.database.atomic((q) => [
    q
      .update(apiKeys)
      .set(change.set)
      .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.companyId, companyId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id }),
    insertWhen(q, auditEvents, row, sql`exists (select 1 from ${apiKeys} where ${and(eq(apiKeys.id, apiKeyId), change.took)})`),
  ]);
  return (updated as unknown[]).length > 0;
}

/**
 * The company of the key: given by a caller that already read the key among its company's (the
 * application), else read here (the admin API, which names a key alone). Not found if not active.
 */
async function keyCompany(ctx: VerbContext & { companyId?: string | undefined }, apiKeyId: string): Promise<string> {
  if (!isApiKeyId(apiKeyId)) throw keyNotFound(apiKeyId);
  return ctx.companyId ?? activeKeyCompany(ctx, apiKeyId);
}

/**
 * Replaces the key's secret. The version bump makes every token issued from the old secret fail
 * on its next request, because each request compares the token's version with the key's.
 */
export async function rotateApiKey(
  ctx: VerbContext & { companyId?: string | undefined },
  { apiKeyId }: { apiKeyId: string },
): Promise<{ id: string; key: string; prefix: string }> {
  const { services, now } = ctx;
  const companyId = await keyCompany(ctx, apiKeyId);
  const key = generateApiKey(services.config.keyEnvironment);
  const keyHash = await hashApiKey(key);
  const took = await changeActiveKey(ctx, companyId, apiKeyId, {
    set: { keyHash, prefix: displayPrefix(key), version: sql`${apiKeys.version} + 1`, rotatedAt: now },
    kind: 'api_key.rotated',
    took: eq(apiKeys.keyHash, keyHash),
  });
  if (!took) throw keyNotFound(apiKeyId);
  return { id: apiKeyId, key, prefix: displayPrefix(key) };
}

/** Revokes the key for good: the key and every token from it stop working at once. */
export async function revokeApiKey(
  ctx: VerbContext & { companyId?: string | undefined },
  { apiKeyId }: { apiKeyId: string },
): Promise<{ id: string; revoked_at: string }> {
  const { now } = ctx;
  const companyId = await keyCompany(ctx, apiKeyId);
  // A key is revoked once: its row's id is named after it, so a revoke that did not take (the key
  // revoked already, even at the same instant) adds no second row.
  const took = await changeActiveKey(ctx, companyId, apiKeyId, {
    set: { revokedAt: now },
    kind: 'api_key.revoked',
    took: eq(apiKeys.revokedAt, now),
    rowId: await uuidFromName(`${apiKeyId}:api_key.revoked`),
  });
  if (!took) throw keyNotFound(apiKeyId);
  return { id: apiKeyId, revoked_at: now.toISOString() };
}
