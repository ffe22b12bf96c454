/**
 * The limits on verification codes by text message beyond the link's own (one a minute, five an
 * hour): per number, per envelope and per company, each per hour and per day. A key could
 * otherwise send envelopes to one number, or to many numbers it pays nothing for, and have the
 * platform text each of them (text-message pumping: the provider bills every message).
 *
 * The database decides, in the batch that records the code: the company's row is locked there
 * (after the recipient's, always in that order), so that two codes of the company, for any
 * recipients of any envelopes, take turns and the counts below each limit are exact. The number's
 * limit counts the company's texts to that number: another company's never stand in its way.
 */
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import { verificationCodes } from '../../data/schema.js';
import type { Services } from '../../services.js';
import { textMessageCountries } from '../companies/text-message-countries.js';
import type { Link } from './resolve-link.js';
import { textableNumber } from './verification-contact.js';
import { HOUR_MS } from './verification-gate.js';

const DAY_MS = 24 * HOUR_MS;

/** How many texts a company's codes may send in the last hour and the last day, per scope. */
export const TEXT_MESSAGE_LIMITS = {
  number: { hour: 5, day: 15 },
  envelope: { hour: 10, day: 30 },
  company: { hour: 100, day: 500 },
} as const;

export type TextMessageScope = { companyId: string; envelopeId: string; number: string };

/**
 * What a text to the link's recipient counts against, their number checked again: a number stored
 * before the checks, or of a country the company has since stopped allowing, gets no text.
 */
export async function textMessageScope(services: Services, link: Link): Promise<TextMessageScope | { problem: string }> {
  const { recipient, envelope } = link;
  const checked = textableNumber(recipient.contactNumber ?? '', await textMessageCountries(services, envelope.companyId));
  if ('problem' in checked) return checked;
  return { companyId: envelope.companyId, envelopeId: envelope.id, number: checked.number };
}

/**
 * True when one more text fits every limit. Only the company's texts of the last day are counted:
 * never more than its daily limit, so the count stays small whatever happened before.
 */
export function withinTextMessageLimits(scope: TextMessageScope, now: Date): SQL {
  const since = (ms: number) => sql`${new Date(now.getTime() - ms).toISOString()}::timestamptz`;
  const { number, envelope, company } = TEXT_MESSAGE_LIMITS;
  const lastHour = sql`${verificationCodes.sentAt} > ${since(HOUR_MS)}`;
  const toNumber = sql`${verificationCodes.destination} = ${scope.number}`;
  const ofEnvelope = sql`${verificationCodes.envelopeId} = ${scope.envelopeId}`;
  return sql`(select count(*) filter (where ${toNumber} and ${lastHour}) < ${number.hour}
      and count(*) filter (where ${toNumber}) < ${number.day}
      and count(*) filter (where ${ofEnvelope} and ${lastHour}) < ${envelope.hour}
      and count(*) filter (where ${ofEnvelope}) < ${envelope.day}
      and count(*) filter (where ${lastHour}) < ${company.hour}
      and count(*) < ${company.day}
    from ${verificationCodes}
    where ${verificationCodes.companyId} = ${scope.companyId} and ${verificationCodes.channel} = 'sms' and ${verificationCodes.sentAt} > ${since(DAY_MS)})`;
}

/**
 * When every limit will allow a text again (null: now), counting what was sent so far: for each
 * limit reached, the time its oldest counted text leaves the window.
 */
export async function textMessagesFreeAt(services: Services, scope: TextMessageScope, now: Date): Promise<Date | null> {
  const sent = await services.database.db
    .select({ sentAt: verificationCodes.sentAt, envelopeId: verificationCodes.envelopeId, destination: verificationCodes.destination })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.companyId, scope.companyId),
        eq(verificationCodes.channel, 'sms'),
        gt(verificationCodes.sentAt, new Date(now.getTime() - DAY_MS)),
      ),
    );
  const times = (rows: typeof sent) => rows.map((row) => row.sentAt.getTime()).sort((a, b) => b - a);
  const scopes: [number[], { hour: number; day: number }][] = [
    [times(sent.filter((row) => row.destination === scope.number)), TEXT_MESSAGE_LIMITS.number],
    [times(sent.filter((row) => row.envelopeId === scope.envelopeId)), TEXT_MESSAGE_LIMITS.envelope],
    [times(sent), TEXT_MESSAGE_LIMITS.company],
  ];
  let free = 0;
  for (const [newestFirst, limit] of scopes) {
    for (const [windowMs, max] of [
      [HOUR_MS, limit.hour],
      [DAY_MS, limit.day],
    ] as const) {
      const inWindow = newestFirst.filter((at) => at > now.getTime() - windowMs);
      if (inWindow.length >= max) free = Math.max(free, inWindow[max - 1]! + windowMs);
    }
  }
  return free > now.getTime() ? new Date(free) : null;
}
