import { asc, eq } from 'drizzle-orm';
import { envelopes, recipients } from '../../data/schema.js';
import type { VerbContext } from '../verb-context.js';
import { queueTopics } from '../queue-topics.js';
import { isTheirTurn } from './link-state.js';

/**
 * Queue consumer, after a signature: in sequential order, once every signer of an order has
 * signed, the signers of the next order get their signing e-mail. Decided on what is committed
 * when the message runs, so any number of signatures and redeliveries e-mail each signer once (the
 * e-mail's id is the same as a first-order signer's request).
 */
export async function advanceTurn({ services }: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const envelopeId = String(body.envelope_id);
  const { db } = services.database;
  const [[envelope], everyone] = await Promise.all([
    db
      .select({ id: envelopes.id, status: envelopes.status, signingOrder: envelopes.signingOrder })
      .from(envelopes)
      .where(eq(envelopes.id, envelopeId))
      .limit(1),
    db.select().from(recipients).where(eq(recipients.envelopeId, envelopeId)).orderBy(asc(recipients.order), asc(recipients.position)),
  ]);
  if (envelope?.status !== 'sent' || envelope.signingOrder !== 'sequential') return;
  const turn = everyone.filter((person) => person.type === 'signer' && person.status === 'sent' && isTheirTurn({ envelope, everyone }, person.id));
  await services.queue.publish(
    turn.map((person) => ({
      topic: queueTopics.signingEmail,
      body: { envelope_id: envelopeId, recipient_id: person.id, reminder: false },
      dedupeId: `${envelopeId}.${person.id}.request`,
    })),
  );
}
