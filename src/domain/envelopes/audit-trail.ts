import { asc, count, eq } from 'drizzle-orm';
import { auditEvents, envelopes } from '../../data/schema.js';
import { isEnvelopeId } from '../../lib/ids.js';
import type { PageRequest, ReadContext } from '../read-context.js';
import { pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';
import { envelopeNotFound } from './envelope-not-found.js';

/**
 * One page of an envelope's audit trail, oldest first, as JSON for the operator. Paginated, as no
 * answer may grow with what strangers repeat: an envelope whose trail an older version let grow
 * one row a failed try is still read whole, page by page.
 */
export async function auditTrail({ services }: ReadContext, { envelopeId, page, perPage }: { envelopeId: string } & PageRequest) {
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const { db } = services.database;
  const ofEnvelope = eq(auditEvents.envelopeId, envelopeId);
  const [[envelope], rows] = await Promise.all([
    db.select({ status: envelopes.status }).from(envelopes).where(eq(envelopes.id, envelopeId)).limit(1),
    db
      .select({ entry: auditEvents, total: totalOfAll() })
      .from(auditEvents)
      .where(ofEnvelope)
      .orderBy(asc(auditEvents.createdAt), asc(auditEvents.seq))
      .limit(perPage)
      .offset(pageOffset(page, perPage)),
  ]);
  if (!envelope) throw envelopeNotFound(envelopeId);
  const { data, pagination } = await pageWithTotal(
    rows,
    ({ entry }) => ({
      id: entry.id,
      kind: entry.kind,
      actor: { type: entry.actorType, id: entry.actorId },
      data: entry.data,
      at: entry.createdAt.toISOString(),
    }),
    page,
    perPage,
    () => db.select({ total: count() }).from(auditEvents).where(ofEnvelope),
  );
  return { envelope_id: envelopeId, status: envelope.status, events: data, pagination };
}
