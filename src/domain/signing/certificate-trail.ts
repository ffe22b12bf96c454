import type { AuditKind } from '../../data/event-kinds.js';
import type { auditEvents, recipients } from '../../data/schema.js';
import { englishNames } from '../../i18n/languages.js';
import type { CertificateRecipient } from '../../ports/pdf-maker.js';
import { COUNTED_KIND, KEPT_ROWS } from './repeated-events.js';
import { type Consent, consentOfVersion } from './signing-state.js';

// The trail's rows as the certificate reads them: their order is settled by the query that reads them.
type Audit = Omit<typeof auditEvents.$inferSelect, 'seq'>;
type Recipient = typeof recipients.$inferSelect;

type Described = { line: (data: Record<string, unknown>) => string; further: [one: string, many: string] };

/**
 * The kinds the certificate lists: each event's line, and what a counted line calls the further
 * events of the kind ("3 further failed tries at a verification code between t1 and t2").
 */
const described: Record<string, Described> = {
  'recipient.emailed': {
    line: (data) => (data.reminder ? 'Reminded by e-mail' : 'Sent the signing e-mail'),
    further: ['e-mail (a reminder)', 'e-mails (reminders)'],
  },
  // The verification of a role that asks for a code: each code sent (masked), each failed try, the success.
  'recipient.code_sent': {
    line: (data) => `Verification code sent by ${channelName(data)} to ${String(data.to)}${data.unconfirmed ? ' (the provider did not confirm it)' : ''}`,
    further: ['verification code sent', 'verification codes sent'],
  },
  'recipient.code_failed': {
    line: (data) =>
      data.reason === 'wrong'
        ? `Wrong verification code entered (try ${String(data.attempt)} of ${String(data.of)})`
        : data.reason === 'expired'
          ? 'Verification code entered after it expired'
          : 'Verification code entered after its tries were used up',
    further: ['failed try at a verification code', 'failed tries at a verification code'],
  },
  'recipient.verified': {
    line: (data) => `Identity verified with the code sent by ${channelName(data)} to ${String(data.to)}`,
    further: ['verification with a code', 'verifications with a code'],
  },
  'recipient.viewed': { line: () => 'Viewed the document', further: ['view of the document', 'views of the document'] },
  'recipient.consented': {
    line: (data) => {
      const agreed = consentOfVersion(String(data.consent_version));
      const language = agreed ? `${englishNames[agreed.language]} (${agreed.language})` : 'unknown language';
      return `Consented to sign electronically (${String(data.consent_version)}); saw the signing page and the consent in ${language}`;
    },
    further: ['consent', 'consents'],
  },
  'recipient.signed': { line: () => 'Signed', further: ['signature', 'signatures'] },
  'recipient.declined': { line: (data) => `Declined: ${String(data.reason)}`, further: ['decline', 'declines'] },
} satisfies { [Kind in AuditKind]?: Described };

function channelName(data: Record<string, unknown>): string {
  return data.channel === 'sms' ? 'text message' : 'e-mail';
}

type Line = CertificateRecipient['events'][number];

/** Lines a recipient's part of the certificate holds at most, whatever happened: the "Envelope sent" line included. */
export const MAX_LINES_PER_RECIPIENT = 30;

const isoUtc = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;
const dateOf = (value: unknown, fallback: Date) => {
  const at = new Date(String(value));
  return Number.isNaN(at.getTime()) ? fallback : at;
};

/** One kind of event of one recipient: the first of them line by line, the rest counted on one line. */
type Run = { kind: string; lines: Line[]; further: { count: number; first: Date; last: Date } | null };

function add(further: Run['further'], count: number, first: Date, last: Date): NonNullable<Run['further']> {
  if (!further) return { count, first, last };
  return { count: further.count + count, first: first < further.first ? first : further.first, last: last > further.last ? last : further.last };
}

/**
 * A recipient's runs, from their rows (oldest first): KEPT_ROWS lines of each kind, then one line
 * counting the rest, whether they were counted when written (COUNTED_KIND) or stored one per event
 * by an older version. Then, while the lines are more than `budget`, the longest run gives up its
 * latest lines to its count; a kind's first event always keeps its own line.
 */
function runsOf(rows: Audit[], budget: number): Run[] {
  const runs = new Map<string, Run>();
  const runOf = (kind: string) => runs.get(kind) ?? runs.set(kind, { kind, lines: [], further: null }).get(kind)!;
  for (const row of rows) {
    if (row.kind === COUNTED_KIND) {
      const kind = String(row.data.counts);
      if (!described[kind]) continue;
      const run = runOf(kind);
      run.further = add(run.further, Number(row.data.count) || 0, dateOf(row.data.first_at, row.createdAt), dateOf(row.data.last_at, row.createdAt));
      continue;
    }
    if (!described[row.kind]) continue;
    const run = runOf(row.kind);
    if (run.lines.length < KEPT_ROWS) run.lines.push(lineOf(row));
    else run.further = add(run.further, 1, row.createdAt, row.createdAt);
  }
  const all = [...runs.values()];
  const size = () => all.reduce((sum, run) => sum + run.lines.length + (run.further ? 1 : 0), 0);
  while (size() > budget) {
    // Giving up lines must shorten the run: one into its count, or two to start a count.
    const shortens = (run: Run) => run.lines.length >= (run.further ? 2 : 3);
    const longest = all.filter(shortens).sort((a, b) => b.lines.length - a.lines.length)[0];
    if (!longest) break; // two lines a kind at most: bounded by the kinds described
    const given = longest.lines.splice(longest.further ? -1 : -2);
    longest.further = add(longest.further, given.length, given[0]!.at, given[given.length - 1]!.at);
  }
  return all;
}

function lineOf(row: Audit): Line {
  return {
    what: described[row.kind]!.line(row.data),
    at: row.createdAt,
    ip: typeof row.data.ip === 'string' ? row.data.ip : null,
    userAgent: typeof row.data.user_agent === 'string' ? row.data.user_agent : null,
  };
}

function countedLine(kind: string, further: NonNullable<Run['further']>): Line {
  const [one, many] = described[kind]!.further;
  const what = `${further.count} further ${further.count === 1 ? one : many} between ${isoUtc(further.first)} and ${isoUtc(further.last)}`;
  return { what, at: further.first, ip: null, userAgent: null };
}

/**
 * The envelope's first line, naming the version of its template it was sent with: a template's
 * later versions change neither this envelope's document nor its fields. Envelopes sent before
 * templates had versions have none in their row.
 */
function sentLine(data: Record<string, unknown>): string {
  const version = data.template_version;
  return typeof version === 'number' ? `Envelope sent from version ${version} of its template` : 'Envelope sent';
}

/**
 * Each recipient with what happened to them, from the audit trail, for the certificate page: in
 * order of time, at most MAX_LINES_PER_RECIPIENT lines each, however long the trail (see runsOf).
 */
export function certificateTrail(everyone: Recipient[], trail: Audit[]): CertificateRecipient[] {
  const sent = trail.find((entry) => entry.kind === 'envelope.sent');
  const sentLines: Line[] = sent ? [{ what: sentLine(sent.data), at: sent.createdAt, ip: null, userAgent: null }] : [];
  return everyone.map((person) => {
    const runs = runsOf(
      trail.filter((entry) => entry.data.recipient_id === person.id),
      MAX_LINES_PER_RECIPIENT - sentLines.length,
    );
    const lines = runs.flatMap((run) => [...run.lines, ...(run.further ? [countedLine(run.kind, run.further)] : [])]);
    return {
      name: person.name,
      email: person.email,
      role: person.role,
      kind: person.type,
      events: [...sentLines, ...lines.sort((a, b) => a.at.getTime() - b.at.getTime())],
    };
  });
}

/**
 * The consents the signers agreed to, each once, in the order first given, for the certificate's
 * consent section: each version with its language and its text in that language.
 */
export function consentsGiven(trail: Audit[]): Consent[] {
  const versions = [...new Set(trail.filter((entry) => entry.kind === 'recipient.consented').map((entry) => String(entry.data.consent_version)))];
  return versions.map((version) => consentOfVersion(version)).filter((found): found is Consent => found !== null);
}

/** The certificate's consent section as its two texts: the versions, and each text under its version and language. */
export function consentSection(consents: Consent[], fallback: Consent): { consentVersion: string; consentText: string } {
  const shown = consents.length > 0 ? consents : [fallback];
  if (shown.length === 1) return { consentVersion: `${shown[0]!.version} (${englishNames[shown[0]!.language]})`, consentText: shown[0]!.text };
  return {
    consentVersion: shown.map((consent) => consent.version).join(', '),
    consentText: shown.map((consent) => `${consent.version} (${englishNames[consent.language]}):\n${consent.text}`).join('\n\n'),
  };
}
