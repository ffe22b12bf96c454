import { z } from '@hono/zod-openapi';
import { requireCompany } from '../../src/domain/companies/find-company.js';
import { archiveTemplate } from '../../src/domain/templates/archive-template.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { adminSecurity } from './admin-schemas.js';
import { templateParams } from './template-version-schemas.js';

export const route = endpointRoute({
  operationId: 'adminArchiveTemplate',
  tags: ['Admin'],
  summary: 'Archive a template: it leaves the list, its read and new sends; its sent envelopes finish as usual',
  description: 'An archived template answers 404 `template_not_found` everywhere, this route too; it cannot be brought back.',
  security: adminSecurity,
  request: { params: templateParams },
  responses: {
    200: jsonContent(z.object({ template_id: z.string(), archived_at: z.string() }), 'The template is archived.', false),
    ...errorResponses('unauthorized', 'company_not_found', 'template_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId, templateId } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  return c.json(await archiveTemplate(ctx, { templateId }), 200);
};
