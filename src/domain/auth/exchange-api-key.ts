import { eq } from 'drizzle-orm';
import { apiKeys } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import type { ReadContext } from '../read-context.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from './access-tokens.js';
import { hashApiKey, looksLikeApiKey } from './api-key-format.js';

export type AccessToken = { access_token: string; token_type: 'Bearer'; expires_in: number };

/** POST /v1/auth/token: an API key, if it exists and is not revoked, buys a one-hour bearer token. */
export async function exchangeApiKey(ctx: ReadContext, { apiKey }: { apiKey: string }): Promise<AccessToken> {
  const { services } = ctx;
  const invalid = new DomainError('invalid_api_key', 'The API key is not valid.');
  if (!looksLikeApiKey(apiKey)) throw invalid;
  const [key] = await services.database.db
    .select({ id: apiKeys.id, companyId: apiKeys.companyId, version: apiKeys.version, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, await hashApiKey(apiKey)))
    .limit(1);
  if (!key || key.revokedAt) throw invalid;
  const token = await issueAccessToken(services.config.tokenSecret, { apiKeyId: key.id, companyId: key.companyId, keyVersion: key.version }, ctx.now);
  return { access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS };
}
