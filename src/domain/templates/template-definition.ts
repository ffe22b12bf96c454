/**
 * What a template is made of, as the seed file and the admin API's import both state it: the
 * settings envelopes inherit, the roles, and the fields placed per role on the document.
 */
import { z } from 'zod';
import { emailAddress, requiredText } from '../../http/schemas.js';

const fieldTypes = ['signature', 'initials', 'date_signed', 'text', 'checkbox', 'name', 'email'] as const;

const Role = z.strictObject({
  name: requiredText(25),
  type: z.enum(['signer', 'cc']),
  order: z.number().int().min(1).max(50),
  locked: z.boolean().default(false),
  recipient: z.strictObject({ name: requiredText(120), email: emailAddress(150) }).nullable().optional(),
});

const Field = z.strictObject({
  role: z.string(),
  type: z.enum(fieldTypes),
  label: z.string().max(100).nullable().optional(),
  page: z.number().int().min(1),
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  required: z.boolean().default(true),
});

export const TemplateDefinition = z
  .strictObject({
    id: z.uuid().optional(),
    name: requiredText(250),
    email_subject: z.string().max(300).nullable().optional(),
    email_message: z.string().max(5000).nullable().optional(),
    expiry_days: z.number().int().min(1).max(365).nullable().optional(),
    reminders: z
      .strictObject({ first_after_days: z.number().int().min(1).max(365), every_days: z.number().int().min(1).max(365) })
      .nullable()
      .optional(),
    signing_order: z.enum(['sequential', 'parallel']),
    share_signing_links: z.boolean().default(false),
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
    });
  });

export type TemplateDefinition = z.infer<typeof TemplateDefinition>;
