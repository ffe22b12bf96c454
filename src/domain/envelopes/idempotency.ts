/**
 * `Idempotency-Key` on a send: a retried request with the same key and the same body gets the
 * first answer again (the same envelope, as it is now; quota taken once) for 24 hours; the same key
 * with another body is refused with `idempotency_key_reused`. Keys belong to the API key that used
 * them. While the first request runs, its key is claimed in the send limits: a twin waits a little
 * for its answer, then is told to retry (`idempotency_request_in_progress`).
 */
import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import { envelopes, idempotencyRecords } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
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

/** A recorded first answer, with the state its envelope is in now. */
export type Earlier = typeof idempotencyRecords.$inferSelect & { envelopeStatus: string | null; envelopeExpiresAt: Date | null };

/** Reads the recorded answer of a key, with its envelope's status, in one query. */
export async function readEarlier(db: Db, apiKeyId: string, key: string): Promise<Earlier | undefined> {
  const [row] = await db
    .select({ record: idempotencyRecords, envelopeStatus: envelopes.status, envelopeExpiresAt: envelopes.expiresAt })
    .from(idempotencyRecords)
    .leftJoin(envelopes, eq(envelopes.id, idempotencyRecords.envelopeId))
    .where(and(eq(idempotencyRecords.apiKeyId, apiKeyId), eq(idempotencyRecords.key, key)))
    .limit(1);
  return row ? { ...row.record, envelopeStatus: row.envelopeStatus, envelopeExpiresAt: row.envelopeExpiresAt } : undefined;
}

/** The record if it still answers for its key at `now` (24 hours), else undefined. */
export const liveRecord = (earlier: Earlier | undefined, now: Date) =>
  earlier && now.getTime() - earlier.createdAt.getTime() < IDEMPOTENCY_WINDOW_MS ? earlier : undefined;

export const keyReused = (key: string) =>
  new DomainError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.', { idempotency_key: key });

export const requestInProgress = (key: string) =>
  new DomainError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly for its answer.',
    { idempotency_key: key },
    { retryAfterSeconds: 1 },
  );

/** The statements that record an answer: an expired record of the same key is replaced. */
export function recordAnswer(
  q: Db,
  record: { apiKeyId: string; key: string; companyId: string; requestHash: string; envelopeId: string; statusCode: number; body: unknown; at: Date },
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
      envelopeId: record.envelopeId,
      statusCode: record.statusCode,
      body: record.body,
      createdAt: record.at,
    }),
  ];
}

/** Records older than the window answer for nothing: the housekeeping sweep removes them. */
export const purgeExpiredRecords = (db: Db, now: Date) =>
  db.delete(idempotencyRecords).where(lte(idempotencyRecords.createdAt, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)));
