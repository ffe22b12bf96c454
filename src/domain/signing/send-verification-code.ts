/**
 * Sending a signer their code, by e-mail or text message. The limits are checked by the database
 * inside the batch that records the code, under the recipient's row lock (and for a text, the
 * company's), so that two clicks at once send one code.
 */
import { eq, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { companies, recipients, verificationCodes } from '../../data/schema.js';
import { type Language, messagesFor } from '../../i18n/index.js';
import { logError } from '../../lib/log-error.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import { mayHaveGoneOut } from '../../ports/unconfirmed-send.js';
import type { Services } from '../../services.js';
import { brandLook } from '../companies/brand-look.js';
import { brandedEmail } from '../emails/branded-email.js';
import type { Letter } from '../emails/letter.js';
import { signingWriteFailed } from '../shared/unavailable.js';
import type { Link, LinkHead } from './resolve-link.js';
import { recordRepeatable } from './repeated-events.js';
import { signerAudit } from './signer-audit.js';
import { codeTextMessage } from './code-text-message.js';
import { textMessageScope, textMessagesFreeAt, withinTextMessageLimits } from './text-message-limits.js';
import type { SigningState } from './signing-state.js';
import type { SignerVerbContext } from '../verb-context.js';
import { CODE_LIFETIME_MS, channelOf, destinationOf, HOUR_MS, nextSendAt, RESEND_AFTER_MS, recentCodes, SENDS_PER_HOUR } from './verification-gate.js';
import { codeHash, linkAwaitingCode, sixDigitCode } from './verification-codes.js';

export type CodeSendOutcome =
  /** Nothing to verify (another role, a proof already held, an ended envelope): the link's state. */
  | { kind: 'not_needed'; state: SigningState }
  | { kind: 'sent' }
  /** The provider gave no answer: the code may arrive, and counts against the limits as sent. */
  | { kind: 'unconfirmed'; nextSendAt: Date }
  | { kind: 'too_soon'; nextSendAt: Date }
  /** The provider did not take it; nothing counts against the limits. */
  | { kind: 'not_sent' }
  /** The recipient's number can get no text message (no mobile number, or of a country the company does not allow). */
  | { kind: 'number_refused' };

/** Sends a new code, in `language` (the page's), if the limits allow one now. */
export async function sendVerificationCode(
  ctx: SignerVerbContext,
  input: { token: string; language: Language; head?: Promise<LinkHead | null> },
): Promise<CodeSendOutcome> {
  const { services } = ctx;
  const { language } = input;
  const who = ctx.actor.signer;
  const open = await linkAwaitingCode(ctx, input.token, input.head);
  if (open.notNeeded) return open.notNeeded;
  const { link, now } = open;
  const { recipient, envelope } = link;
  const channel = channelOf(recipient);
  const [earlier, texted] = await Promise.all([recentCodes(services, recipient.id, now), channel === 'sms' ? textMessageScope(services, link) : null]);
  if (texted && 'problem' in texted) return { kind: 'number_refused' };
  const waitUntil = nextSendAt(earlier, now);
  if (waitUntil) return { kind: 'too_soon', nextSendAt: waitUntil };

  const code = sixDigitCode();
  const hash = await codeHash(services.config.tokenSecret, recipient.id, code);
  const id = crypto.randomUUID();
  const at = (ms: number) => sql`${new Date(now.getTime() - ms).toISOString()}::timestamptz`;
  const withinLinkLimits = sql`not exists (select 1 from ${verificationCodes} where ${verificationCodes.recipientId} = ${recipient.id} and ${verificationCodes.sentAt} > ${at(RESEND_AFTER_MS)})
    and (select count(*) from ${verificationCodes} where ${verificationCodes.recipientId} = ${recipient.id} and ${verificationCodes.sentAt} > ${at(HOUR_MS)}) < ${SENDS_PER_HOUR}`;
  const withinLimits = texted ? sql`${withinLinkLimits} and ${withinTextMessageLimits(texted, now)}` : withinLinkLimits;
  await services.database
    .atomic((q) => [
      // The lock: a second send for this recipient waits here, then sees the first's code.
      q
        .update(recipients)
        .set({ status: sql`${recipients.status}` })
        .where(eq(recipients.id, recipient.id)),
      // A text waits for the company's other texts too: the limits per number and company count them.
      ...(texted
        ? [
            q
              .update(companies)
              .set({ id: sql`${companies.id}` })
              .where(eq(companies.id, envelope.companyId)),
          ]
        : []),
      insertWhen(
        q,
        verificationCodes,
        {
          id,
          companyId: envelope.companyId,
          envelopeId: envelope.id,
          recipientId: recipient.id,
          channel,
          codeHash: hash,
          sentAt: now,
          expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS),
          attempts: 0,
          destination: texted?.number ?? null,
        },
        withinLimits,
      ),
    ])
    .catch((err: unknown) => {
      throw signingWriteFailed(err);
    });
  const { db } = services.database;
  const [claimed] = await db.select({ id: verificationCodes.id }).from(verificationCodes).where(eq(verificationCodes.id, id)).limit(1);
  if (!claimed) {
    const again = nextSendAt(await recentCodes(services, recipient.id, now), now) ?? (texted && (await textMessagesFreeAt(services, texted, now)));
    return again ? { kind: 'too_soon', nextSendAt: again } : { kind: 'not_sent' };
  }

  let unconfirmed = false;
  try {
    await deliver(services, link, code, id, language, texted?.number);
  } catch (err) {
    // Told without the code: the error names the provider's answer only.
    logError(`a verification code could not be sent by ${channel}`, err);
    // Refused, it counts for nothing. Unanswered, it may have gone out: it stays, usable and
    // counted, or a provider slow to answer would let a page send text messages without limit.
    if (!mayHaveGoneOut(err)) {
      await db
        .delete(verificationCodes)
        .where(eq(verificationCodes.id, id))
        .catch(() => {});
      return { kind: 'not_sent' };
    }
    unconfirmed = true;
  }
  // Counted past the first few (repeated-events.ts): codes go on being asked for while the envelope is out.
  const sent = await recordRepeatable(recipient.id, {
    companyId: envelope.companyId,
    envelopeId: envelope.id,
    kind: 'recipient.code_sent',
    createdAt: now,
    ...signerAudit(recipient, who, { channel, to: destinationOf(recipient), code_id: id, ...(unconfirmed ? { unconfirmed: true } : {}) }),
  });
  await services.database.atomic(sent);
  if (!unconfirmed) return { kind: 'sent' };
  // When the next may be asked for, counting this one: a minute on, or an hour after the fifth last.
  return { kind: 'unconfirmed', nextSendAt: nextSendAt([{ sentAt: now }, ...earlier], now)! };
}

/** `number`: the checked E.164 of a text message; an e-mail when none. */
async function deliver(services: Services, link: Link, code: string, codeId: string, language: Language, number?: string): Promise<void> {
  const { recipient, envelope } = link;
  const m = messagesFor(language);
  const look = await brandLook(services, envelope.companyId);
  if (number) {
    if (!services.sms) throw new Error('No text-message sender is configured.');
    await services.sms.send({
      to: number,
      body: codeTextMessage(m, look.displayName, code),
      tags: { envelope_id: envelope.id, recipient_id: recipient.id, kind: 'verification_code' },
    });
    return;
  }
  const values = { code, title: asSingleLine(envelope.title), from: look.displayName, minutes: CODE_LIFETIME_MS / 60_000 };
  const letter: Letter = {
    subject: m.text('email.code.subject', values),
    preheader: m.text('email.code.preheader', values),
    paragraphs: [{ text: m.text('email.code.lead', values), html: m.html('email.code.lead', values) }],
    notes: [m.text('email.code.notes', values)],
    footer: m.text('email.request.footer', { sender: envelope.senderEmail, company: look.displayName }),
  };
  await services.mailer.send(
    brandedEmail(look, { language, dir: m.dir }, letter, {
      to: { name: asSingleLine(recipient.name), email: recipient.email },
      tags: { envelope_id: envelope.id, recipient_id: recipient.id, kind: 'verification_code' },
      idempotencyKey: `${recipient.id}.code.${codeId}`,
    }),
  );
}
