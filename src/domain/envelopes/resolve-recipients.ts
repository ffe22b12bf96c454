/**
 * Matching a send's recipients to the template's roles (docs/api-reference.md, section 4.1, rules 1–2). Role names match
 * exactly, as the template spells them: "client" or " Client" is not the role "Client" (a
 * recipient sent to the wrong role would be asked to sign the wrong fields). The answer lists the
 * unlocked roles, so a caller can correct its spelling.
 */
import type { RoleType, templateRoles, VerificationMethod } from '../../data/schema.js';
import { DomainError, type Issue, validationFailed } from '../../errors.js';
import { contactNumberFor } from '../signing/verification-contact.js';
import type { RecipientInput } from './send-request.js';

type Role = typeof templateRoles.$inferSelect;

/** One recipient of the envelope: a supplied one, or the fixed recipient of a locked role. */
export type EnvelopeRecipient = {
  roleId: string;
  role: string;
  type: RoleType;
  order: number;
  position: number;
  name: string;
  email: string;
  contactNumber: string | null;
  /** What the signer proves before the document opens, from their role. */
  verification: VerificationMethod;
};

/** Duplicate roles need no template to find, so they are refused before anything is read. */
export function duplicateRoleIssues(recipients: RecipientInput[]): Issue[] {
  const seen = new Set<string>();
  const issues: Issue[] = [];
  recipients.forEach((recipient, index) => {
    if (seen.has(recipient.role)) issues.push({ path: `recipients[${index}].role`, message: `The role ${recipient.role} is given more than once.` });
    seen.add(recipient.role);
  });
  return issues;
}

/**
 * `textMessageCountries`: the countries whose numbers the company's codes may be texted to (null:
 * every one); a number of another is refused with the send.
 */
export function resolveRecipients(roles: Role[], supplied: RecipientInput[], textMessageCountries: readonly string[] | null = null): EnvelopeRecipient[] {
  const unlocked = roles.filter((role) => !role.locked);
  const byName = new Map(roles.map((role) => [role.name, role]));
  const unknown = supplied.map((recipient, index) => ({ recipient, index, role: byName.get(recipient.role) })).filter(({ role }) => !role || role.locked);
  if (unknown.length > 0) {
    throw new DomainError('unknown_signer_role', 'Every recipient role must be an unlocked role of the template.', {
      issues: unknown.map(({ recipient, index, role }) => ({
        path: `recipients[${index}].role`,
        message: role ? `The role ${recipient.role} is locked: its recipient is fixed by the template.` : `The template has no role ${recipient.role}.`,
      })),
      unlocked_roles: unlocked.map((role) => role.name),
    });
  }
  const given = new Set(supplied.map((recipient) => recipient.role));
  const missing = unlocked.filter((role) => !given.has(role.name));
  if (missing.length > 0) {
    throw validationFailed(
      missing.map((role) => ({ path: 'recipients', message: `The role ${role.name} needs a recipient.` })),
      'Every unlocked role of the template needs exactly one recipient.',
    );
  }

  const numberIssues: Issue[] = [];
  const fromRequest = supplied.map((recipient, position) => {
    const role = byName.get(recipient.role)!;
    const verification = role.verification ?? 'none';
    return {
      roleId: role.id,
      role: role.name,
      type: role.type,
      order: role.order,
      position,
      name: recipient.name,
      email: recipient.email,
      contactNumber: contactNumberFor(position, verification, recipient.contact_number, numberIssues, textMessageCountries),
      verification,
    };
  });
  if (numberIssues.length > 0) throw validationFailed(numberIssues, 'Some recipients need a contact number for their code.');
  const fixed = roles
    .filter((role) => role.locked)
    .map((role, index) => ({
      roleId: role.id,
      role: role.name,
      type: role.type,
      order: role.order,
      position: supplied.length + index,
      name: role.recipientName ?? '',
      email: role.recipientEmail ?? '',
      contactNumber: null,
      verification: role.verification ?? 'none',
    }));
  return [...fromRequest, ...fixed].sort((a, b) => a.order - b.order || a.position - b.position);
}

/** Whose turn it is first: sequential, the signers of the lowest order; parallel, every signer. */
export function firstTurn<T extends { type: RoleType; order: number }>(recipients: T[], signingOrder: 'sequential' | 'parallel'): T[] {
  const signers = recipients.filter((recipient) => recipient.type === 'signer');
  if (signingOrder === 'parallel') return signers;
  const first = Math.min(...signers.map((signer) => signer.order));
  return signers.filter((signer) => signer.order === first);
}
