import { and, eq, sql } from 'drizzle-orm';
import { recipients } from '../../data/schema.js';
import { uuidFromName } from '../../lib/ids.js';
import { type ChangeRecord, recordChange, sideEffectsOf } from '../envelopes/record-change.js';
import { signingWriteFailed } from '../shared/unavailable.js';
import { committed, type SignerVerbContext } from '../verb-context.js';
import { linkState } from './link-state.js';
import { eventData } from '../webhooks/event-data.js';
import { signerAudit } from './signer-audit.js';
import { type LinkHead, readLinkHead, resolveLink } from './resolve-link.js';
import { earlierValues, readEarlierValues } from './earlier-values.js';
import { verificationGate } from './verification-gate.js';
import type { SigningState } from './signing-state.js';

/**
 * A signer opens their link (`head`: its first read, when the caller made it already). The first
 * time they see the document (it is their turn; for a role that asks for a code, once this browser
 * entered it), the recipient is recorded as viewed, with an audit row and an `envelope.viewed`
 * event, in one batch; later opens record nothing more. The page's state carries what the signers
 * before them put on the document.
 */
export async function openSigningLink(ctx: SignerVerbContext, input: { token: string; head?: Promise<LinkHead | null> }): Promise<SigningState> {
  const { services, now } = ctx;
  const who = ctx.actor.signer;
  const head = input.head ?? readLinkHead(services, input.token);
  // The earlier signers' values are read beside the rest of the link: no wave of their own.
  const earlier = head.then((found) => (found ? readEarlierValues(services, found) : []));
  earlier.catch(() => {});
  const link = await resolveLink(services, input.token, head);
  if (!link) return { kind: 'invalid' };
  const linked = linkState(link, now);
  // A role that asks for a code sees nothing, and is not "viewed", until this browser entered it.
  const gate = await verificationGate(ctx, link, linked);
  if (gate) return gate;
  if (linked.kind !== 'sign') return linked;
  const state = { ...linked, earlier: earlierValues(await earlier, linked.envelope.language ?? 'en') };
  if (link.recipient.status !== 'sent') return state;

  const { envelope, recipient } = link;
  const record: ChangeRecord = {
    companyId: envelope.companyId,
    envelopeId: envelope.id,
    at: now,
    audit: [{ id: await uuidFromName(`${recipient.id}:viewed`), kind: 'recipient.viewed', ...signerAudit(recipient, who) }],
    event: {
      id: `msg_viewed_${recipient.id}`,
      kind: 'envelope.viewed',
      payload: eventData({ envelope, at: now, recipient }),
    },
  };
  const [viewed] = await services.database
    .atomic((q) => [
      q
        .update(recipients)
        .set({ status: 'viewed', viewedAt: now })
        .where(and(eq(recipients.id, recipient.id), eq(recipients.status, 'sent')))
        .returning({ id: recipients.id }),
      ...recordChange(q, record, sql`exists (select 1 from ${recipients} where ${recipients.id} = ${recipient.id} and ${recipients.viewedAt} is not null)`),
    ])
    .catch((err: unknown) => {
      throw signingWriteFailed(err);
    });
  if ((viewed as unknown[]).length > 0) committed(ctx, sideEffectsOf(record));
  return state;
}
