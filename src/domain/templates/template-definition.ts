/**
 * What a template is made of, as the seed file and the admin API's import both state it: the
 * settings envelopes inherit, the roles, and the fields placed per role on the document.
 */
import { z } from 'zod';
import { emailAddress, multiLineText, requiredSingleLineText, singleLineText } from '../shared/text-fields.js';
import { LANGUAGES } from '../../i18n/languages.js';
import { verificationMethods } from '../../data/schema.js';
import { checkFieldKind, fieldKindKeys } from './field-kinds.js';
import { MAX_FIELD_PAGE, MAX_PAGE_POINTS } from './page-bounds.js';

export const fieldTypes = ['signature', 'initials', 'date_signed', 'text', 'checkbox', 'name', 'email', 'date', 'number', 'dropdown', 'radio'] as const;

export { MAX_FIELD_PAGE, MAX_PAGE_POINTS };

const Role = z.strictObject({
  name: requiredSingleLineText(25),
  type: z.enum(['signer', 'cc']),
  order: z.number().int().min(1).max(50),
  locked: z.boolean().default(false),
  recipient: z
    .strictObject({ name: requiredSingleLineText(120), email: emailAddress(150) })
    .nullable()
    .optional(),
  /** What the role's signer proves before the document opens: a code by e-mail or by text message (sms_code needs the recipient's contact_number in the send). */
  verification: z.enum(verificationMethods, { message: `Must be one of ${verificationMethods.join(', ')}.` }).optional(),
});

const Field = z.strictObject({
  role: singleLineText(25),
  type: z.enum(fieldTypes),
  label: singleLineText(100).nullable().optional(),
  page: z.number().int().min(1).max(MAX_FIELD_PAGE),
  x: z.number().int().min(0).max(MAX_PAGE_POINTS),
  y: z.number().int().min(0).max(MAX_PAGE_POINTS),
  width: z.number().int().min(1).max(MAX_PAGE_POINTS),
  height: z.number().int().min(1).max(MAX_PAGE_POINTS),
  required: z.boolean().default(true),
  ...fieldKindKeys,
});

export const TemplateDefinition = z
  .strictObject({
    id: z.uuid().optional(),
    name: requiredSingleLineText(250),
    email_subject: singleLineText(300).nullable().optional(),
    email_message: multiLineText(5000).nullable().optional(),
    expiry_days: z.number().int().min(1).max(365).nullable().optional(),
    reminders: z
      .strictObject({ first_after_days: z.number().int().min(1).max(365), every_days: z.number().int().min(1).max(365) })
      .nullable()
      .optional(),
    signing_order: z.enum(['sequential', 'parallel']),
    share_signing_links: z.boolean().default(false),
    /** The language of the signing page (and e-mails) for its envelopes; else the company's. */
    language: z
      .enum(LANGUAGES, { message: `Must be one of ${LANGUAGES.join(', ')}.` })
      .nullable()
      .optional(),
    roles: z.array(Role).min(1).max(50),
    fields: z.array(Field).max(500).default([]),
  })
  .superRefine((template, ctx) => {
    const seen = new Set<string>();
    template.roles.forEach((role, index) => {
      if (seen.has(role.name)) ctx.addIssue({ code: 'custom', path: ['roles', index, 'name'], message: 'Role names must be unique.' });
      seen.add(role.name);
      if (role.locked && !role.recipient) {
        ctx.addIssue({ code: 'custom', path: ['roles', index, 'recipient'], message: 'A locked role needs its fixed recipient.' });
      }
      // A locked role's fixed recipient has no number to text a code to.
      if (role.locked && role.verification === 'sms_code') {
        ctx.addIssue({ code: 'custom', path: ['roles', index, 'verification'], message: 'A locked role has no contact number: use email_code.' });
      }
      if (!role.locked && role.recipient) {
        ctx.addIssue({ code: 'custom', path: ['roles', index, 'recipient'], message: 'Only a locked role has a fixed recipient.' });
      }
    });
    if (template.roles.length > 0 && !template.roles.some((role) => role.type === 'signer')) {
      ctx.addIssue({ code: 'custom', path: ['roles'], message: 'A template needs at least one signer role.' });
    }
    template.fields.forEach((field, index) => {
      const role = template.roles.find((candidate) => candidate.name === field.role);
      if (!role) ctx.addIssue({ code: 'custom', path: ['fields', index, 'role'], message: 'Not a role of this template.' });
      else if (role.type !== 'signer') {
        ctx.addIssue({ code: 'custom', path: ['fields', index, 'role'], message: 'Only signer roles have fields.' });
      }
      for (const issue of checkFieldKind(field)) ctx.addIssue({ code: 'custom', path: ['fields', index, ...issue.path], message: issue.message });
    });
  });

export type TemplateDefinition = z.infer<typeof TemplateDefinition>;
