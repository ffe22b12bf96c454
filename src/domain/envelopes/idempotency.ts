/**
 * `Idempotency-Key` on a send: a retried request with the same key and the same body gets the
 * first answer again (the same envelope; quota taken once) for 24 hours; the same key with another
 * body is refused with `idempotency_key_reused`. Keys belong to the API key that used them.
 */
import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import { idempotencyRecords } from '../../data/schema.js';
import { ApiError } from '../../errors.js';
import { sha256Hex } from '../../lib/crypto.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/** The same body, whatever the order of its keys, hashes the same. */
export function requestHash(body: unknown): Promise<string> {
  return sha256Hex(JSON.stringify(canonical(body)));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, entry]) => entry !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, entry]) => [key, canonical(entry)]),
    );
  }
  return value;
}

type Earlier = typeof idempotencyRecords.$inferSelect;

/** The stored first answer for a repeat of the same request, or an error for another request. */
export function replayOf(earlier: Earlier | undefined, hash: string, now: Date): { status: number; body: unknown } | null {
  if (!earlier || now.getTime() - earlier.createdAt.getTime() >= IDEMPOTENCY_WINDOW_MS) return null;
  if (earlier.requestHash !== hash) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.', {
      idempotency_key: earlier.key,
    });
  }
  return { status: earlier.statusCode, body: earlier.body };
}

/** The statements that record an answer: an expired record of the same key is replaced. */
export function recordAnswer(
  q: Db,
  record: { apiKeyId: string; key: string; companyId: string; requestHash: string; statusCode: number; body: unknown; at: Date },
) {
  return [
    q
      .delete(idempotencyRecords)
      .where(
        and(
          eq(idempotencyRecords.apiKeyId, record.apiKeyId),
          eq(idempotencyRecords.key, record.key),
          lte(idempotencyRecords.createdAt, new Date(record.at.getTime() - IDEMPOTENCY_WINDOW_MS)),
        ),
      ),
    q.insert(idempotencyRecords).values({
      apiKeyId: record.apiKeyId,
      key: record.key,
      companyId: record.companyId,
      requestHash: record.requestHash,
      statusCode: record.statusCode,
      body: record.body,
      createdAt: record.at,
    }),
  ];
}
