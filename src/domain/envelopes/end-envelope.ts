import { and, eq, type SQL, sql } from 'drizzle-orm';
import { envelopes, type EnvelopeStatus } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { committed, type VerbContext } from '../verb-context.js';
import { type ChangeRecord, recordChange, sideEffectsOf } from './record-change.js';

/**
 * Ends an envelope still out for signature (voided, expired) in one batch: the conditional status
 * change, its audit row, its webhook event and the event's dispatch in the outbox, each written
 * only if the envelope is in the new status when the batch reaches it. A change that lost a race
 * (voided while it expired) records nothing of its own, and a repeat adds nothing. The audit row
 * names the actor: the operator (`admin`) or a user of the application (`user`, with their id)
 * voids, the service itself expires (`system`).
 */
export async function endEnvelope(
  ctx: VerbContext<{ kind: 'operator' } | { kind: 'system' } | { kind: 'user'; userId: string; sessionId: string }>,
  change: {
    envelope: { id: string; companyId: string };
    status: Extract<EnvelopeStatus, 'voided' | 'expired'>;
    /** Only an envelope matching this (as well as being out for signature) changes. */
    when?: SQL;
    set?: Partial<typeof envelopes.$inferInsert>;
    payload: Record<string, unknown>;
    auditData?: Record<string, unknown>;
  },
): Promise<{ changed: boolean }> {
  const { services, now } = ctx;
  const { envelope, status } = change;
  const { actor } = ctx;
  const actorType = actor.kind === 'operator' ? 'admin' : actor.kind;
  const actorId = actor.kind === 'user' ? actor.userId : null;
  const kind = `envelope.${status}` as const;
  const record: ChangeRecord = {
    companyId: envelope.companyId,
    envelopeId: envelope.id,
    at: now,
    audit: [{ id: await uuidFromName(`${envelope.id}:${kind}`), kind, actorType, actorId, data: change.auditData ?? {} }],
    event: { id: `msg_${status}_${envelope.id}`, kind, payload: change.payload },
  };
  const nowInStatus = sql`exists (select 1 from ${envelopes} where ${and(eq(envelopes.id, envelope.id), eq(envelopes.status, status))})`;
  const [updated] = await services.database.atomic((q) => [
    q
      .update(envelopes)
      .set({ ...change.set, status })
      .where(and(eq(envelopes.id, envelope.id), eq(envelopes.status, 'sent'), change.when))
      .returning({ id: envelopes.id }),
    ...recordChange(q, record, nowInStatus),
  ]);
  const changed = (updated as unknown[]).length > 0;
  if (changed) committed(ctx, sideEffectsOf(record));
  return { changed };
}
