/**
 * When an API key was last used, and from which client address: what a company's owners read in
 * the application's list of keys to tell a key in service from one forgotten.
 */
import { eq } from 'drizzle-orm';
import { apiKeys } from '../../data/schema.js';
import type { ReadContext } from '../read-context.js';

/** Longer than any IPv6 address written out; a proxy's odd value is cut rather than stored whole. */
const MAX_CLIENT_LENGTH = 64;

export async function recordKeyUse({ services, now }: ReadContext, { apiKeyId, client }: { apiKeyId: string; client: string }): Promise<void> {
  await services.database.db
    .update(apiKeys)
    .set({ lastUsedAt: now, lastUsedIp: client.slice(0, MAX_CLIENT_LENGTH) })
    .where(eq(apiKeys.id, apiKeyId));
}
