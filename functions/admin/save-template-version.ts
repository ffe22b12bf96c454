import { discardTemplateDocument } from '../../src/domain/templates/import-template.js';
import { saveTemplateVersion } from '../../src/domain/templates/save-template-version.js';
import { validationFailed } from '../../src/errors.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { adminSecurity } from './admin-schemas.js';
import { readTemplateForm, templateFormSchema, underTemplatePart } from './template-form.js';
import { AdminTemplate, adminTemplate, templateParams } from './template-version-schemas.js';

export const route = endpointRoute({
  operationId: 'adminSaveTemplateVersion',
  tags: ['Admin'],
  summary: 'Save a new version of a template: the whole template again, with or without a new PDF',
  description:
    'The template keeps its id; the new version becomes what the API reads and every new send takes, while envelopes already sent keep the version they were sent with. The `template` part is the whole template but its `id` (an `id` given must be this template’s); without a `document` part the current PDF is kept. Checked like an import.',
  security: adminSecurity,
  request: {
    params: templateParams,
    body: {
      required: true,
      content: { 'multipart/form-data': { schema: templateFormSchema('optional', 'The new PDF; leave it out to keep the current one.') } },
    },
  },
  responses: {
    201: jsonContent(AdminTemplate, 'The template at its new version.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'invalid_document', 'company_not_found', 'template_not_found', 'conflict', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId, templateId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  const { definition, document } = await readTemplateForm(c.req.raw, ctx, 'optional');
  const { id, ...rest } = definition;
  if (id !== undefined && id !== templateId) {
    if (document) await discardTemplateDocument(ctx, document.stored);
    throw validationFailed([{ path: 'template.id', message: 'Must be this template’s id, or left out.' }]);
  }
  await saveTemplateVersion(ctx, { templateId, definition: rest, document }).catch((err: unknown) => {
    throw underTemplatePart(err);
  });
  return c.json(await adminTemplate(ctx, templateId), 201);
};
