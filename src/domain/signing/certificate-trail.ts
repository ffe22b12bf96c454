import type { auditEvents, recipients } from '../../data/schema.js';
import { englishNames } from '../../i18n/languages.js';
import type { CertificateRecipient } from '../../ports/pdf-maker.js';
import { type Consent, consentOfVersion } from './signing-state.js';

type Audit = typeof auditEvents.$inferSelect;
type Recipient = typeof recipients.$inferSelect;

const described: Record<string, (data: Record<string, unknown>) => string> = {
  'recipient.emailed': (data) => (data.reminder ? 'Reminded by e-mail' : 'Sent the signing e-mail'),
  // The verification of a role that asks for a code: each code sent (masked), each failed try, the success.
  'recipient.code_sent': (data) =>
    `Verification code sent by ${channelName(data)} to ${String(data.to)}${data.unconfirmed ? ' (the provider did not confirm it)' : ''}`,
  'recipient.code_failed': (data) =>
    data.reason === 'wrong'
      ? `Wrong verification code entered (try ${String(data.attempt)} of ${String(data.of)})`
      : data.reason === 'expired'
        ? 'Verification code entered after it expired'
        : 'Verification code entered after its tries were used up',
  'recipient.verified': (data) => `Identity verified with the code sent by ${channelName(data)} to ${String(data.to)}`,
  'recipient.viewed': () => 'Viewed the document',
  'recipient.consented': (data) => {
    const agreed = consentOfVersion(String(data.consent_version));
    const language = agreed ? `${englishNames[agreed.language]} (${agreed.language})` : 'unknown language';
    return `Consented to sign electronically (${String(data.consent_version)}); saw the signing page and the consent in ${language}`;
  },
  'recipient.signed': () => 'Signed',
  'recipient.declined': (data) => `Declined: ${String(data.reason)}`,
};

function channelName(data: Record<string, unknown>): string {
  return data.channel === 'sms' ? 'text message' : 'e-mail';
}

/** Each recipient with what happened to them, from the audit trail, for the certificate page. */
export function certificateTrail(everyone: Recipient[], trail: Audit[]): CertificateRecipient[] {
  const sent = trail.find((entry) => entry.kind === 'envelope.sent');
  return everyone.map((person) => ({
    name: person.name,
    email: person.email,
    role: person.role,
    kind: person.type,
    events: [
      ...(sent ? [{ what: 'Envelope sent', at: sent.createdAt, ip: null, userAgent: null }] : []),
      ...trail
        .filter((entry) => entry.data.recipient_id === person.id && described[entry.kind])
        .map((entry) => ({
          what: described[entry.kind]!(entry.data),
          at: entry.createdAt,
          ip: typeof entry.data.ip === 'string' ? entry.data.ip : null,
          userAgent: typeof entry.data.user_agent === 'string' ? entry.data.user_agent : null,
        })),
    ],
  }));
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
