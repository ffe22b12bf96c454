import { and, eq, isNull, sql } from 'drizzle-orm';
import { webhookSubscriptions } from '../../data/schema.js';
import { isUuid } from '../../lib/ids.js';
import type { CompanyContext } from '../verb-context.js';
import { sealSecret, secretKeysOf } from './secret-box.js';
import { newWebhookSecret } from './standard-webhooks.js';
import { webhookNotFound } from './subscriptions.js';

/** How long the replaced secret still signs deliveries after a rotation, beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * POST /v1/webhooks/{id}/rotate-secret: a new signing secret, shown only in this answer and kept
 * sealed. For 24 hours each delivery is signed under both secrets (two `v1,` entries), so a receiver
 * can switch at its own pace; then under the new one only. The replaced secret moves over still
 * sealed, in the same statement that seals the new one: a second rotation at the same moment
 * replaces the first's secret in turn, and only the latest two ever sign.
 */
export async function rotateSecret(ctx: CompanyContext, { id }: { id: string }): Promise<{ secret: string; previous_secret_expires_at: string }> {
  const { services, companyId } = ctx;
  if (!isUuid(id)) throw webhookNotFound(id);
  const secret = newWebhookSecret();
  const sealed = await sealSecret(await secretKeysOf(services.config), id, secret);
  const expiresAt = new Date(ctx.now.getTime() + SECRET_OVERLAP_MS);
  const [rotated] = await services.database.db
    .update(webhookSubscriptions)
    .set({
      previousSecretCiphertext: sql`${webhookSubscriptions.secretCiphertext}`,
      previousSecretKeyId: sql`${webhookSubscriptions.secretKeyId}`,
      previousSecretExpiresAt: expiresAt,
      secretCiphertext: sealed.ciphertext,
      secretKeyId: sealed.keyId,
    })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId), isNull(webhookSubscriptions.deletedAt)))
    .returning({ id: webhookSubscriptions.id });
  if (!rotated) throw webhookNotFound(id);
  return { secret, previous_secret_expires_at: expiresAt.toISOString() };
}
