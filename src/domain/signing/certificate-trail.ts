import type { auditEvents, recipients } from '../../data/schema.js';
import type { CertificateRecipient } from '../../pdf/finish-document.js';

type Audit = typeof auditEvents.$inferSelect;
type Recipient = typeof recipients.$inferSelect;

const described: Record<string, (data: Record<string, unknown>) => string> = {
  'recipient.emailed': (data) => (data.reminder ? 'Reminded by e-mail' : 'Sent the signing e-mail'),
  'recipient.viewed': () => 'Viewed the document',
  'recipient.consented': (data) => `Consented to sign electronically (${String(data.consent_version)})`,
  'recipient.signed': () => 'Signed',
  'recipient.declined': (data) => `Declined: ${String(data.reason)}`,
};

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
