/**
 * A row of the company's audit trail as a sentence: who (a user by name, an API key by its prefix,
 * the service operator, the service itself, a recipient), what, and on which key or envelope. Each
 * kind has its words under `audit.kind.<kind>`; a kind without them (one added since) still reads,
 * as a sentence naming the kind as it is stored, never as nothing.
 */
import type { AuditEntry } from '../../domain/audit/company-audit-log.js';
import type { AppMessageKey, AppMessages } from '../../i18n/app-messages.js';
import { appEn } from '../../i18n/app-catalogue/en.js';

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The catalogue key of a kind's own sentence, or null for a kind without words. */
export function sentenceKeyOf(kind: string): AppMessageKey | null {
  const key = `audit.kind.${kind}`;
  return kind !== 'other' && key in appEn ? (key as AppMessageKey) : null;
}

const roles: readonly unknown[] = ['owner', 'admin', 'member', 'viewer'];
/** A role by its name in words; a value that is no role (a seat's true or false) as it is. */
const roleName = (m: AppMessages, role: unknown) => (roles.includes(role) ? m.text(`audit.role.${role as 'owner'}`) : str(role));

export function whoOf(m: AppMessages, entry: AuditEntry): string {
  switch (entry.actorType) {
    case 'user':
    case 'recipient':
      return entry.actorName ?? (str(entry.data.email) || m.text('audit.who.someone'));
    case 'api_key':
      return entry.actorName ? m.text('audit.who.apiKey', { prefix: entry.actorName }) : m.text('audit.who.someone');
    case 'admin':
      return m.text('audit.who.operator');
    case 'system':
      return m.text('audit.who.system');
    default:
      return m.text('audit.who.someone');
  }
}

export function auditSentence(m: AppMessages, entry: AuditEntry): string {
  const who = whoOf(m, entry);
  const key = sentenceKeyOf(entry.kind);
  if (!key) return m.text('audit.kind.other', { who, kind: entry.kind });
  const { data } = entry;
  const reason = str(data.reason);
  const values = {
    who,
    title: entry.envelopeTitle ?? str(data.envelope_id),
    recipient: entry.recipientName ?? (str(data.email) || m.text('audit.who.someone')),
    // A key by its name and prefix; one without a name (made by the admin API) by its prefix.
    key: entry.subjectKey?.name
      ? m.text('audit.key.named', { name: entry.subjectKey.name, prefix: entry.subjectKey.prefix })
      : m.text('audit.key.unnamed', { prefix: entry.subjectKey?.prefix ?? str(data.api_key_id) }),
    reason,
    hasReason: reason ? 'yes' : 'no',
    reminder: data.reminder === true ? 'yes' : 'no',
    count: Number(data.count) || 0,
    // A user of the company a `user.*` row is about, and the roles of an invitation or a change.
    email: str(data.email) || m.text('audit.who.someone'),
    role: roleName(m, data.role),
    from: roleName(m, data.from),
    to: roleName(m, data.to),
    seat: data.to === true ? 'yes' : 'no',
    fields: Array.isArray(data.fields) ? data.fields.map(str).join(', ') : '',
  };
  return m.text(key, values) || m.text('audit.kind.other', { who, kind: entry.kind });
}
