import { type Language, isLanguage } from '../../i18n/languages.js';
import type { Reminders, RoleType, SigningOrder, templateRoles, templates, VerificationMethod } from '../../data/schema.js';

export type TemplateRole = {
  name: string;
  type: RoleType;
  order: number;
  locked: boolean;
  /** The fixed recipient of a locked role; null for roles a send assigns. */
  recipient: { name: string; email: string } | null;
  /** What its signer proves before the document opens. */
  verification: VerificationMethod;
  /** Whether a send must give this role's recipient a contact_number (a code by text message). */
  contact_number_required: boolean;
};

export type TemplateSummary = {
  id: string;
  name: string;
  email_subject: string | null;
  email_message: string | null;
  expiry_days: number | null;
  reminders: Reminders | null;
  signing_order: SigningOrder;
  share_signing_links: boolean;
  /** The language of the signing page for its envelopes; null: the company's. */
  language: Language | null;
  roles: TemplateRole[];
  created_at: string;
  updated_at: string;
};

type TemplateRow = typeof templates.$inferSelect;
type RoleRow = Pick<typeof templateRoles.$inferSelect, 'name' | 'type' | 'order' | 'locked' | 'recipientName' | 'recipientEmail'> & {
  verification?: VerificationMethod | null;
};

export function toTemplateSummary(template: TemplateRow, roles: RoleRow[]): TemplateSummary {
  return {
    id: template.id,
    name: template.name,
    email_subject: template.emailSubject,
    email_message: template.emailMessage,
    expiry_days: template.expiryDays,
    reminders: template.reminders ?? null,
    signing_order: template.signingOrder,
    share_signing_links: template.shareSigningLinks,
    language: isLanguage(template.language) ? template.language : null,
    roles: roles.map(toTemplateRole),
    created_at: template.createdAt.toISOString(),
    updated_at: template.updatedAt.toISOString(),
  };
}

function toTemplateRole(role: RoleRow): TemplateRole {
  return {
    name: role.name,
    type: role.type,
    order: role.order,
    locked: role.locked,
    recipient: role.locked && role.recipientEmail ? { name: role.recipientName ?? '', email: role.recipientEmail } : null,
    verification: role.verification ?? 'none',
    contact_number_required: role.verification === 'sms_code',
  };
}
