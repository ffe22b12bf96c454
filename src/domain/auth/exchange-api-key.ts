import { eq } from 'drizzle-orm';
import { apiKeys } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import type { ReadContext } from '../read-context.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from './access-tokens.js';
import { hashApiKey, looksLikeApiKey } from './api-key-format.js';
import { recordKeyUse } from './key-use.js';

export type AccessToken = { access_token: string; token_type: 'Bearer'; expires_in: number };

/**
 * POST /v1/auth/token: an API key, if it exists and is not revoked, buys a one-hour bearer token.
 * The exchange is the key's use that is recorded (its time and `client`, the caller's address, when
 * given): a program exchanges its key about once an hour, so this is one write per hour and key,
 * where recording each bearer call would be a write per API request.
 */
export async function exchangeApiKey(ctx: ReadContext, { apiKey, client }: { apiKey: string; client?: string | undefined }): Promise<AccessToken> {
  const { services } = ctx;
  const invalid = new DomainError('invalid_api_key', 'The API key is not valid.');
  if (!looksLikeApiKey(apiKey)) throw invalid;
  const [key] = await services.database.db
    .select({ id: apiKeys.id, companyId: apiKeys.companyId, version: apiKeys.version, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, await hashApiKey(apiKey)))
    .limit(1);
  if (!key || key.revokedAt) throw invalid;
  if (client !== undefined) await recordKeyUse(ctx, { apiKeyId: key.id, client });
  const token = await issueAccessToken(services.config.tokenSecret, { apiKeyId: key.id, companyId: key.companyId, keyVersion: key.version }, ctx.now);
  return { access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS };
}
