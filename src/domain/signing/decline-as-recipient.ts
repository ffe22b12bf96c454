import { and, eq, inArray, sql } from 'drizzle-orm';
import { envelopes, recipients } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { type ChangeRecord, recordChange, sideEffectsOf } from '../envelopes/record-change.js';
import { signingWriteFailed } from '../shared/unavailable.js';
import { committed, type SignerVerbContext } from '../verb-context.js';
import { waitingStatuses } from '../shared/waiting-recipients.js';
import { linkState } from './link-state.js';
import { type LinkHead, resolveLink } from './resolve-link.js';
import { verificationGate } from './verification-gate.js';
import { eventData } from '../webhooks/event-data.js';
import { signerAudit } from './signer-audit.js';
import { declinedAt, envelopeOpen } from './signing-conditions.js';
import { acceptDeclineReason } from './accept-submission.js';
import type { SigningState } from './signing-state.js';
import { queueTopics } from '../queue-topics.js';

/**
 * A signer declines, with a reason. One batch: the recipient declined, the envelope declined (so
 * every other link stops working at once), the audit row, an `envelope.declined` event and an
 * e-mail to the sender. A signer may decline before their turn; not after they signed.
 */
export async function declineAsRecipient(
  ctx: SignerVerbContext,
  input: { token: string; reason: string; head?: Promise<LinkHead | null> },
): Promise<SigningState> {
  const { services, now } = ctx;
  const { token, reason } = input;
  const who = ctx.actor.signer;
  const link = await resolveLink(services, token, input.head);
  if (!link) return { kind: 'invalid' };
  const state = linkState(link, now);
  const gate = await verificationGate(ctx, link, state);
  if (gate) return gate;
  if (state.kind !== 'sign' && state.kind !== 'not_your_turn') return state;
  const why = acceptDeclineReason(reason);

  const { envelope, recipient } = link;
  const declined: ChangeRecord = {
    companyId: envelope.companyId,
    envelopeId: envelope.id,
    at: now,
    audit: [{ id: await uuidFromName(`${envelope.id}:declined`), kind: 'recipient.declined', ...signerAudit(recipient, who, { reason: why }) }],
    event: {
      id: `msg_declined_${envelope.id}`,
      kind: 'envelope.declined',
      payload: eventData({ envelope: { ...envelope, status: 'declined' }, at: now, recipient, reason: why }),
    },
    outbox: [{ topic: queueTopics.declinedEmail, body: { envelope_id: envelope.id }, dedupeId: `${envelope.id}.declined.email` }],
  };
  const declinedNow = declinedAt(recipient.id, now);
  const results = await services.database
    .atomic((q) => [
      q
        .update(envelopes)
        .set({ status: sql`${envelopes.status}` })
        .where(and(eq(envelopes.id, envelope.id), eq(envelopes.status, 'sent'))),
      q
        .update(recipients)
        .set({ status: 'declined', declinedAt: now })
        .where(
          and(eq(recipients.id, recipient.id), eq(recipients.type, 'signer'), inArray(recipients.status, [...waitingStatuses]), envelopeOpen(envelope.id, now)),
        )
        .returning({ id: recipients.id }),
      q
        .update(envelopes)
        .set({ status: 'declined' })
        .where(and(eq(envelopes.id, envelope.id), eq(envelopes.status, 'sent'), declinedNow)),
      ...recordChange(q, declined, declinedNow),
    ])
    .catch((err: unknown) => {
      throw signingWriteFailed(err);
    });
  if ((results[1] as unknown[]).length > 0) committed(ctx, sideEffectsOf(declined));
  const after = await resolveLink(services, token);
  return after ? linkState(after, now) : { kind: 'invalid' };
}
