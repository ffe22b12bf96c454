import { and, asc, eq, inArray } from 'drizzle-orm';
import { envelopes, recipients } from '../../data/schema.js';
import { queueTopics } from '../queue-topics.js';
import { waitingStatuses } from '../shared/waiting-recipients.js';
import type { VerbContext } from '../verb-context.js';
import { whoseTurn } from './whose-turn.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The most reminder rounds an envelope sends. A template may remind every day and never expire:
 * without a bound that is an e-mail a day to a signer, and a row of the trail each, for ever.
 */
export const REMINDER_ROUNDS = 20;

/**
 * Queue consumer: reminds the signers whose turn it is and who have not signed, then schedules
 * the next reminder (`every_days` later) while the envelope is out, before it expires, and up to
 * REMINDER_ROUNDS rounds.
 */
export async function remindEnvelope(ctx: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const { services, now } = ctx;
  const envelopeId = String(body.envelope_id);
  const round = Number(body.round ?? 1);
  const [envelope] = await services.database.db.select().from(envelopes).where(eq(envelopes.id, envelopeId)).limit(1);
  if (envelope?.status !== 'sent' || !envelope.reminders || round > REMINDER_ROUNDS) return;
  if (envelope.expiresAt && envelope.expiresAt <= now) return;

  const waiting = await services.database.db
    .select({ id: recipients.id, order: recipients.order })
    .from(recipients)
    .where(and(eq(recipients.envelopeId, envelopeId), eq(recipients.type, 'signer'), inArray(recipients.status, [...waitingStatuses])))
    .orderBy(asc(recipients.order));
  if (waiting.length === 0) return;
  const turn = whoseTurn(waiting, envelope.signingOrder);

  const next = new Date(now.getTime() + envelope.reminders.every_days * DAY_MS);
  await services.queue.publish([
    ...turn.map((recipient) => ({
      topic: queueTopics.signingEmail,
      // The round names this reminder's e-mail, so a delivery again does not send it twice.
      body: { envelope_id: envelopeId, recipient_id: recipient.id, reminder: true, round },
      dedupeId: `${envelopeId}.${recipient.id}.reminder.${round}`,
    })),
    ...(round < REMINDER_ROUNDS && (!envelope.expiresAt || next < envelope.expiresAt)
      ? [{ topic: queueTopics.remind, body: { envelope_id: envelopeId, round: round + 1 }, notBefore: next, dedupeId: `${envelopeId}.remind.${round + 1}` }]
      : []),
  ]);
}
