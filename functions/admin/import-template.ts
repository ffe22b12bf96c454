import { importTemplate } from '../../src/domain/templates/import-template.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { TemplateDetail } from '../templates/template-schemas.js';
import { adminSecurity, companyIdParam } from './admin-schemas.js';
import { readTemplateForm, templateFormSchema, underTemplatePart } from './template-form.js';

export { MAX_TEMPLATE_JSON } from './template-form.js';

export const route = endpointRoute({
  operationId: 'adminImportTemplate',
  tags: ['Admin'],
  summary: 'Import a template: a PDF plus its roles and fields',
  description: 'Fields are placed in PDF points from the top-left corner of their page and must fit on it. The template is its version 1.',
  security: adminSecurity,
  request: { params: companyIdParam, body: { required: true, content: { 'multipart/form-data': { schema: templateFormSchema('required', 'The PDF.') } } } },
  responses: {
    201: jsonContent(TemplateDetail, 'The imported template.', false),
    ...errorResponses('unauthorized', 'validation_failed', 'invalid_document', 'company_not_found', 'conflict', 'payload_too_large'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  const { definition, document } = await readTemplateForm(c.req.raw, ctx, 'required');
  const imported = await importTemplate(ctx, { definition, document }).catch((err: unknown) => {
    throw underTemplatePart(err);
  });
  return c.json(imported, 201);
};
