import { z } from '@hono/zod-openapi';
import { languageTag } from '../../src/http/language-field.js';
import { timestamp } from '../../src/http/schemas.js';

const TemplateRole = z
  .object({
    name: z.string(),
    type: z.enum(['signer', 'cc']),
    order: z.number().int(),
    locked: z.boolean(),
    recipient: z.object({ name: z.string(), email: z.string() }).nullable(),
    verification: z.enum(['none', 'email_code', 'sms_code']).openapi({
      description: 'What the role’s signer proves before the document opens: nothing beyond the link, a code sent by e-mail, or a code sent by text message.',
    }),
    contact_number_required: z.boolean().openapi({ description: 'Whether a send must give this role’s recipient a `contact_number` (true for `sms_code`).' }),
  })
  .openapi('TemplateRole');

export const TemplateSummary = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    email_subject: z.string().nullable(),
    email_message: z.string().nullable(),
    expiry_days: z.number().int().nullable(),
    reminders: z.object({ first_after_days: z.number().int(), every_days: z.number().int() }).nullable(),
    signing_order: z.enum(['sequential', 'parallel']),
    share_signing_links: z.boolean(),
    language: languageTag
      .nullable()
      .openapi({ description: 'The language of the signing page for its envelopes, when the signer’s browser asks for none of ours; `null`: the company’s.' }),
    roles: z.array(TemplateRole),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi('TemplateSummary');

const TemplateField = z
  .object({
    role: z.string(),
    type: z.string().openapi({ description: 'signature, initials, date_signed, text, checkbox, name, email, date, number, dropdown or radio.' }),
    label: z.string().nullable(),
    page: z.number().int(),
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    required: z.boolean(),
    settings: z
      .union([
        z.object({ min: z.number().optional(), max: z.number().optional() }),
        z.object({
          options: z.array(
            z.union([z.string(), z.object({ value: z.string(), x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() })]),
          ),
        }),
      ])
      .nullable()
      .openapi({
        description:
          'What the kind takes beyond its place: `number` its optional `min` and `max`; `dropdown` its `options` (texts); `radio` its `options`, each a `value` with its own box on the field’s page. `null` for the other kinds, and for a number without bounds.',
      }),
  })
  .openapi('TemplateField');

export const TemplateDetail = TemplateSummary.extend({
  document: z
    .object({
      file_name: z.string(),
      sha256: z.string(),
      page_count: z.number().int(),
      pages: z.array(z.object({ width: z.number(), height: z.number() })),
    })
    .nullable(),
  fields: z.array(TemplateField),
}).openapi('Template');
