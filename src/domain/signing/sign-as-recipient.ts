import { and, eq, inArray, sql } from 'drizzle-orm';
import { envelopeFields, envelopes, recipients } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { type ChangeRecord, recordChange, sideEffectsOf } from '../envelopes/record-change.js';
import { signingWriteFailed } from '../shared/unavailable.js';
import { committed, type SignerVerbContext } from '../verb-context.js';
import { acceptSubmission } from './accept-submission.js';
import { checkTypedSignatures } from './typed-signature-check.js';
import { waitingStatuses } from '../shared/waiting-recipients.js';
import { linkState } from './link-state.js';
import { type LinkHead, resolveLink } from './resolve-link.js';
import { verificationGate } from './verification-gate.js';
import { eventData } from '../webhooks/event-data.js';
import { signerAudit } from './signer-audit.js';
import { allSigned, completedAt, earlierSignersDone, envelopeOpen, signedAt } from './signing-conditions.js';
import { queueTopics } from '../queue-topics.js';
import { consentFor, type SigningState, type SigningSubmission } from './signing-state.js';

/**
 * A signer signs. One batch: the recipient signed (only if the envelope is still open, it is
 * their turn and they have not acted), their field values, the consent and signature in the audit
 * trail, an `envelope.signed` event; and, if they were the last signer, the envelope completed with
 * its own records and the finished PDF's job in the outbox. The envelope row is locked first, so
 * two last signers finishing at once complete it exactly once. A double submit signs once; one
 * that lost a race (voided, expired, declined meanwhile) changes nothing and shows the new state.
 */
export async function signAsRecipient(
  ctx: SignerVerbContext,
  input: { token: string; submission: SigningSubmission; head?: Promise<LinkHead | null> },
): Promise<SigningState> {
  const { services, now } = ctx;
  const { token, submission } = input;
  const who = ctx.actor.signer;
  const link = await resolveLink(services, token, input.head);
  if (!link) return { kind: 'invalid' };
  const state = linkState(link, now);
  const gate = await verificationGate(ctx, link, state);
  if (gate) return gate;
  if (state.kind !== 'sign') return state;
  const values = acceptSubmission(state.fields, submission);
  await checkTypedSignatures(services.pdf, state.fields, values);

  const { envelope, recipient } = link;
  const language = submission.language ?? 'en';
  const signed: ChangeRecord = {
    companyId: envelope.companyId,
    envelopeId: envelope.id,
    at: now,
    audit: [
      {
        id: await uuidFromName(`${recipient.id}:consented`),
        kind: 'recipient.consented',
        // The language of the page they signed on: the consent they agreed to is that language's text.
        ...signerAudit(recipient, who, { consent_version: consentFor(language).version, language }),
      },
      { id: await uuidFromName(`${recipient.id}:signed`), kind: 'recipient.signed', ...signerAudit(recipient, who) },
    ],
    event: {
      id: `msg_signed_${recipient.id}`,
      kind: 'envelope.signed',
      payload: eventData({ envelope, at: now, recipient }),
    },
    outbox: [{ topic: queueTopics.advance, body: { envelope_id: envelope.id }, dedupeId: `${recipient.id}.signed.advance` }],
  };
  const completed: ChangeRecord = {
    companyId: envelope.companyId,
    envelopeId: envelope.id,
    at: now,
    audit: [{ id: await uuidFromName(`${envelope.id}:completed`), kind: 'envelope.completed', actorType: 'system' }],
    event: {
      id: `msg_completed_${envelope.id}`,
      kind: 'envelope.completed',
      payload: eventData({ envelope: { ...envelope, status: 'completed' }, at: now, recipients: link.everyone }),
    },
    outbox: [
      { topic: queueTopics.finish, body: { envelope_id: envelope.id }, dedupeId: `${envelope.id}.finish` },
      { topic: queueTopics.completedEmail, body: { envelope_id: envelope.id }, dedupeId: `${envelope.id}.completed.email` },
    ],
  };

  const signedNow = signedAt(recipient.id, now);
  let completion = -1;
  const results = await services.database
    .atomic((q) => {
      const statements = [
        // The lock: concurrent signings of one envelope take turns from here to their commit.
        q
          .update(envelopes)
          .set({ status: sql`${envelopes.status}` })
          .where(and(eq(envelopes.id, envelope.id), eq(envelopes.status, 'sent'))),
        q
          .update(recipients)
          .set({ status: 'signed', signedAt: now })
          .where(
            and(
              eq(recipients.id, recipient.id),
              inArray(recipients.status, [...waitingStatuses]),
              envelopeOpen(envelope.id, now),
              envelope.signingOrder === 'sequential' ? earlierSignersDone(envelope.id, recipient.order) : undefined,
            ),
          )
          .returning({ id: recipients.id }),
        ...[...values].map(([fieldId, value]) =>
          q
            .update(envelopeFields)
            .set({ value })
            .where(and(eq(envelopeFields.id, fieldId), eq(envelopeFields.recipientId, recipient.id), signedNow)),
        ),
        ...recordChange(q, signed, signedNow),
      ];
      completion = statements.length;
      statements.push(
        q
          .update(envelopes)
          .set({ status: 'completed', completedAt: now })
          .where(and(eq(envelopes.id, envelope.id), eq(envelopes.status, 'sent'), signedNow, allSigned(envelope.id)))
          .returning({ id: envelopes.id }),
        ...recordChange(q, completed, completedAt(envelope.id, now)),
      );
      return statements;
    })
    .catch((err: unknown) => {
      throw signingWriteFailed(err);
    });
  const happened = (index: number) => (results[index] as unknown[]).length > 0;
  if (happened(1)) committed(ctx, sideEffectsOf(signed));
  if (happened(completion)) committed(ctx, sideEffectsOf(completed));
  const after = await resolveLink(services, token);
  return after ? linkState(after, now) : { kind: 'invalid' };
}
