/**
 * Signing in to the company application without a password: a person asks for a link by e-mail,
 * and the link, spent once within 15 minutes, starts a session (sessions.ts).
 *
 * The answer to a request never tells whether the address is a user (no enumeration): the edge
 * shows one page for every outcome, and the e-mail goes out after that answer. Requests are
 * limited per address and per client; past a limit nothing is sent, and it is logged.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import { signInLinks } from '../../data/schema.js';
import { logError } from '../../lib/log-error.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import { sha256Hex } from '../../lib/crypto.js';
import { appMessagesFor } from '../../i18n/app-messages.js';
import type { RateRule } from '../../ports/rate-limiter.js';
import { type BrandLook, DEFAULT_ACCENT, brandLook } from '../companies/brand-look.js';
import { brandedEmail } from '../emails/branded-email.js';
import type { Letter } from '../emails/letter.js';
import type { VerbContext } from '../verb-context.js';
import { activeMemberships } from './people.js';
import { isSecretShaped, newSecret, secretHash } from './secrets.js';

export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60 * 1000;

const FIFTEEN_MINUTES = 15 * 60 * 1000;
export const signInRateRules = {
  perAddress: { name: 'app-sign-in-address', limit: 5, windowMs: FIFTEEN_MINUTES },
  perClient: { name: 'app-sign-in-client', limit: 20, windowMs: FIFTEEN_MINUTES },
} as const satisfies Record<string, RateRule>;

/** What came of a request; the edge answers all of them alike. `deliver` sends the e-mail, after the answer. */
export type SignInRequested = { outcome: 'sent'; deliver: () => Promise<void> } | { outcome: 'no_user' } | { outcome: 'limited' };

/** `email` already checked to be an address; `client` the caller's address as the runtime knows it. */
export async function requestSignInLink(ctx: VerbContext, input: { email: string; client: string }): Promise<SignInRequested> {
  const { services, now } = ctx;
  const email = input.email.trim().toLowerCase();
  // Counted by the address's digest: the limiter's store need not hold people's addresses.
  const [perAddress, perClient] = await Promise.all([
    services.rateLimiter.limit(signInRateRules.perAddress, `app-sign-in:email:${await sha256Hex(email)}`),
    services.rateLimiter.limit(signInRateRules.perClient, `app-sign-in:ip:${input.client}`),
  ]);
  if (!perAddress.success || !perClient.success) {
    const which = !perAddress.success ? 'address' : 'client address';
    logError(`sign-in link refused: too many requests for one ${which}; nothing was sent`, new Error(`limit of ${which} reached`));
    return { outcome: 'limited' };
  }
  const memberships = await activeMemberships(services, email);
  if (memberships.length === 0) return { outcome: 'no_user' };

  const { token, row } = await newSignInLink(now, email);
  await services.database.db.insert(signInLinks).values(row);
  const only = memberships.length === 1 ? memberships[0] : undefined;
  const to = { name: asSingleLine(only?.name ?? email), email: only?.email ?? email };
  const url = `${services.config.baseUrl}/app/sign-in/${token}`;
  return {
    outcome: 'sent',
    deliver: async () => {
      // One company's people know it by its brand; a person of several gets the service's own look.
      const look = only ? await brandLook(services, only.companyId) : serviceLook;
      await services.mailer.send(
        brandedEmail(look, { language: 'en', dir: 'ltr' }, signInLetter(email, url), {
          to,
          tags: { kind: 'app_sign_in' },
          idempotencyKey: `app-sign-in.${await secretHash(token)}`,
        }),
      );
    },
  };
}

export const serviceLook: BrandLook = { displayName: 'E-signature', accentColor: DEFAULT_ACCENT, accentChosen: false, logoUrl: null, language: null };

function signInLetter(email: string, url: string): Letter {
  const m = appMessagesFor('en');
  const values = { app: m.text('page.appName'), email, minutes: SIGN_IN_LINK_LIFETIME_MS / 60_000 };
  return {
    subject: m.text('email.signIn.subject', values),
    preheader: m.text('email.signIn.preheader', values),
    paragraphs: [{ text: m.text('email.signIn.lead', values), html: m.html('email.signIn.lead', values) }],
    action: { label: m.text('email.signIn.action'), url, fallback: m.text('email.signIn.linkAsText') },
    notes: [m.text('email.signIn.notes', values)],
    footer: m.text('email.signIn.footer', values),
  };
}

/**
 * What a spent link signs in: the address, and for an invitation's link the one user it was made
 * for (null for a link asked for on the sign-in page: any active user with the address).
 */
export type LinkHolder = { email: string; userId: string | null };

/** A new link's token and its row (only the token's SHA-256 is stored): asked for, or an invitation's. */
export async function newSignInLink(now: Date, email: string, userId: string | null = null) {
  const token = newSecret();
  const row = {
    tokenHash: await secretHash(token),
    email: email.toLowerCase(),
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS),
  };
  return { token, row };
}

/** The address a link may sign in, while it may: unused and within its 15 minutes. Reads only: a mail scanner's GET spends nothing. */
export async function usableSignInLink(ctx: VerbContext, token: string): Promise<LinkHolder | null> {
  if (!isSecretShaped(token)) return null;
  const [row] = await ctx.services.database.db
    .select({ email: signInLinks.email, userId: signInLinks.userId })
    .from(signInLinks)
    .where(and(eq(signInLinks.tokenHash, await secretHash(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, ctx.now)))
    .limit(1);
  return row ?? null;
}

/** Spends the link, once: the address it signs in, or null when it was used, has expired, or is unknown. */
export async function spendSignInLink(ctx: VerbContext, token: string): Promise<LinkHolder | null> {
  if (!isSecretShaped(token)) return null;
  const { db } = ctx.services.database;
  // One statement: of two posts of the same link, only one finds it unused.
  const [row] = await db
    .update(signInLinks)
    .set({ usedAt: ctx.now })
    .where(and(eq(signInLinks.tokenHash, await secretHash(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, ctx.now)))
    .returning({ email: signInLinks.email, userId: signInLinks.userId });
  return row ?? null;
}
