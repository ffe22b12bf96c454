/**
 * A reminder by hand: someone of the company asks a signer whose turn it is to sign, now, with the
 * same e-mail the scheduled reminders send. At most one an hour per recipient, counted from the
 * trail's `recipient.reminded` rows, so that the application cannot be used to flood a signer.
 */
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { auditEvents, envelopes, outboxMessages, recipients } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isRecipientId } from '../../lib/ids.js';
import { queueTopics } from '../queue-topics.js';
import { waitingStatuses } from '../shared/waiting-recipients.js';
import { committed, type VerbContext } from '../verb-context.js';
import { type AppUser, assertMayActOn, type UserActor } from './envelope-actions.js';
import { whoseTurn } from './whose-turn.js';

export const REMIND_EVERY_MS = 3600 * 1000;

export async function remindRecipient(
  ctx: VerbContext<UserActor>,
  input: { user: AppUser; envelopeId: string; recipientId: string },
): Promise<{ remindedAt: Date }> {
  const { services, now, actor } = ctx;
  const { user, envelopeId, recipientId } = input;
  await assertMayActOn(ctx, user, envelopeId);
  const { db } = services.database;
  const [[envelope], waiting] = await Promise.all([
    db
      .select({ status: envelopes.status, expiresAt: envelopes.expiresAt, signingOrder: envelopes.signingOrder })
      .from(envelopes)
      .where(and(eq(envelopes.id, envelopeId), eq(envelopes.companyId, user.companyId)))
      .limit(1),
    db
      .select({ id: recipients.id, order: recipients.order, email: recipients.email })
      .from(recipients)
      .where(
        and(
          eq(recipients.envelopeId, envelopeId),
          eq(recipients.companyId, user.companyId),
          eq(recipients.type, 'signer'),
          inArray(recipients.status, [...waitingStatuses]),
        ),
      ),
  ]);
  const recipient = envelope ? whoseTurn(waiting, envelope.signingOrder).find((r) => r.id === recipientId) : undefined;
  const expired = envelope?.expiresAt != null && envelope.expiresAt <= now;
  if (envelope?.status !== 'sent' || expired || !isRecipientId(recipientId) || !recipient)
    throw new DomainError('conflict', 'This recipient cannot be reminded: it is not their turn to sign.', {
      envelope_id: envelopeId,
      recipient_id: recipientId,
    });

  // The row and its e-mail go in together, and only if no reminder by hand went to them within the
  // hour: the database checks it, so two clicks at once send one e-mail.
  const id = crypto.randomUUID();
  const round = `manual.${id}`;
  const recent = sql`not exists (select 1 from ${auditEvents} where ${and(
    eq(auditEvents.envelopeId, envelopeId),
    eq(auditEvents.kind, 'recipient.reminded'),
    sql`${auditEvents.data}->>'recipient_id' = ${recipientId}`,
    gt(auditEvents.createdAt, new Date(now.getTime() - REMIND_EVERY_MS)),
  )})`;
  const message = {
    topic: queueTopics.signingEmail,
    // Its own round names the e-mail (signing-email.ts): a delivery again sends it once.
    body: { envelope_id: envelopeId, recipient_id: recipientId, reminder: true, round },
    dedupeId: `${envelopeId}.${recipientId}.reminder.${round}`,
  };
  await services.database.atomic((q) => [
    insertWhen(
      q,
      auditEvents,
      {
        id,
        companyId: user.companyId,
        envelopeId,
        kind: 'recipient.reminded',
        actorType: 'user',
        actorId: actor.userId,
        data: { recipient_id: recipientId, email: recipient.email },
        createdAt: now,
      },
      recent,
    ),
    insertWhen(
      q,
      outboxMessages,
      { id: message.dedupeId, companyId: user.companyId, topic: message.topic, body: message.body, dueAt: null, createdAt: now },
      sql`exists (select 1 from ${auditEvents} where ${eq(auditEvents.id, id)})`,
    ),
  ]);
  const [written] = await db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.id, id)).limit(1);
  if (!written)
    throw new DomainError(
      'rate_limited',
      'This recipient was reminded less than an hour ago.',
      { envelope_id: envelopeId, recipient_id: recipientId },
      { retryAfterSeconds: 3600 },
    );
  committed(ctx, [message]);
  return { remindedAt: now };
}
