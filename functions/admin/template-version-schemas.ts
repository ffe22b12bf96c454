/** What the admin API answers about a template's versions: the latest with its number, every version's summary, and any one version. */
import { z } from '@hono/zod-openapi';
import { listTemplateVersions } from '../../src/domain/templates/template-versions.js';
import { readTemplate } from '../../src/domain/templates/get-template.js';
import type { CompanyReadContext } from '../../src/domain/read-context.js';
import { TemplateDetail, TemplateSummary } from '../templates/template-schemas.js';
import { companyIdParam } from './admin-schemas.js';

export const templateParams = companyIdParam.extend({ templateId: z.string().openapi({ format: 'uuid' }) });

export const TemplateVersionSummary = TemplateSummary.pick({
  name: true,
  email_subject: true,
  email_message: true,
  expiry_days: true,
  reminders: true,
  signing_order: true,
  share_signing_links: true,
  language: true,
})
  .extend({
    version: z.number().int(),
    saved_at: z.string(),
    saved_by: z
      .object({
        type: z.enum(['user', 'admin', 'system', 'api_key']),
        id: z.string().nullable(),
        email: z.string().nullable().openapi({ description: 'The user’s e-mail, for a version saved in the application.' }),
      })
      .openapi({ description: 'Who saved it: a user of the company, the operator (`admin`) or the service (`system`, a seed).' }),
    role_count: z.number().int(),
    field_count: z.number().int(),
  })
  .openapi('TemplateVersionSummary');

/** One version as it was saved: its settings, roles, fields and document. */
export const AdminTemplateVersion = TemplateDetail.extend({
  version: z.number().int().openapi({ description: 'The version read.' }),
}).openapi('AdminTemplateVersion');

export const templateVersionParams = templateParams.extend({
  version: z.string().openapi({ description: 'A version number, 1 for the first; one the template never had is `template_not_found`.', example: '1' }),
});

export const AdminTemplate = TemplateDetail.extend({
  version: z.number().int().openapi({ description: 'The latest version: what the API reads and every new send takes.' }),
  versions: z.array(TemplateVersionSummary).openapi({ description: 'Every version, newest first.' }),
}).openapi('AdminTemplate');

/** The template's latest version with the list of its versions, read side by side. */
export async function adminTemplate(ctx: CompanyReadContext, templateId: string): Promise<z.infer<typeof AdminTemplate>> {
  const [latest, versions] = await Promise.all([readTemplate(ctx, templateId), listTemplateVersions(ctx, { templateId })]);
  return { ...latest, versions };
}
