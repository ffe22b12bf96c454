/**
 * Inviting a person to the company: the user is made (active, with the role and seat chosen) and
 * e-mailed an invitation. The invitation is a sign-in link (sign-in-links.ts) in its own words: the
 * same 256-bit token of which only the SHA-256 is stored, spent once within 15 minutes by the
 * button of the page it opens (never by the page itself, which mail scanners open); it names the
 * user it was made for, so that spending it signs the person in to this company even when the
 * address is a user of others. Past its 15 minutes the person signs in as anyone does, with their
 * address on the sign-in page: the user exists already.
 */
import { isUniqueViolation } from '../../data/errors.js';
import { auditEvents, signInLinks, type UserRole, users } from '../../data/schema.js';
import { appMessagesFor } from '../../i18n/app-messages.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import { secretHash } from '../app-access/secrets.js';
import { newSignInLink, SIGN_IN_LINK_LIFETIME_MS } from '../app-access/sign-in-links.js';
import { brandLook } from '../companies/brand-look.js';
import { brandedEmail } from '../emails/branded-email.js';
import type { Letter } from '../emails/letter.js';
import type { CompanyContext } from '../verb-context.js';

export type Invitation = { name: string; email: string; role: UserRole; esignSeat: boolean };

/** `exists` when the address is already a user of the company (active or not): nothing is made or sent. */
export type InviteOutcome = { outcome: 'invited'; userId: string; deliver: () => Promise<void> } | { outcome: 'exists' };

/** `inviter` is the acting user's name, as the e-mail says who invited. */
export async function inviteUser(ctx: CompanyContext, invitation: Invitation, inviter: string): Promise<InviteOutcome> {
  const { services, companyId, now } = ctx;
  const userId = crypto.randomUUID();
  const { token, row } = await newSignInLink(now, invitation.email, userId);
  const actorId = ctx.actor.kind === 'user' ? ctx.actor.userId : null;
  const session = ctx.actor.kind === 'user' ? { session_id: ctx.actor.sessionId } : {};
  try {
    // The user's unique address in the company (any case) refuses a second invitation in the same transaction.
    await services.database.atomic((q) => [
      q.insert(users).values({
        id: userId,
        companyId,
        email: invitation.email,
        name: invitation.name,
        role: invitation.role,
        active: true,
        esignSeat: invitation.esignSeat,
        createdAt: now,
      }),
      q.insert(signInLinks).values(row),
      q.insert(auditEvents).values({
        companyId,
        kind: 'user.invited',
        actorType: 'user',
        actorId,
        data: { user_id: userId, email: invitation.email, role: invitation.role, esign_seat: invitation.esignSeat, ...session },
        createdAt: now,
      }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) return { outcome: 'exists' };
    throw err;
  }
  const url = `${services.config.baseUrl}/app/sign-in/${token}`;
  return {
    outcome: 'invited',
    userId,
    deliver: async () => {
      const look = await brandLook(services, companyId);
      const letter = invitationLetter({
        inviter: asSingleLine(inviter),
        company: look.displayName,
        email: invitation.email,
        role: invitation.role,
        url,
        signIn: `${services.config.baseUrl}/app`,
      });
      await services.mailer.send(
        brandedEmail(look, { language: 'en', dir: 'ltr' }, letter, {
          to: { name: asSingleLine(invitation.name), email: invitation.email },
          tags: { kind: 'app_invitation' },
          idempotencyKey: `app-invitation.${await secretHash(token)}`,
        }),
      );
    },
  };
}

function invitationLetter(parts: { inviter: string; company: string; email: string; role: UserRole; url: string; signIn: string }): Letter {
  const m = appMessagesFor('en');
  const values = {
    app: m.text('page.appName'),
    inviter: parts.inviter,
    company: parts.company,
    email: parts.email,
    role: m.text(`role.${parts.role}`),
    minutes: SIGN_IN_LINK_LIFETIME_MS / 60_000,
    signIn: parts.signIn,
  };
  return {
    subject: m.text('email.invite.subject', values),
    preheader: m.text('email.invite.preheader', values),
    paragraphs: [{ text: m.text('email.invite.lead', values), html: m.html('email.invite.lead', values) }],
    action: { label: m.text('email.invite.action'), url: parts.url, fallback: m.text('email.signIn.linkAsText') },
    notes: [m.text('email.invite.notes', values)],
    footer: m.text('email.invite.footer', values),
  };
}
