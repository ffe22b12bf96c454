import { requireCompany } from '../../src/domain/companies/find-company.js';
import { getTemplateVersion } from '../../src/domain/templates/template-versions.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { operatorContext } from '../../src/http/verb-contexts.js';
import { adminSecurity } from './admin-schemas.js';
import { AdminTemplateVersion, templateVersionParams } from './template-version-schemas.js';

export const route = endpointRoute({
  operationId: 'adminGetTemplateVersion',
  tags: ['Admin'],
  summary: 'Get one version of a template, as it was saved',
  description:
    'The version’s settings (name, e-mail subject and message, expiry, reminders, signing order, language), roles, fields and document, as that version was saved: envelopes sent with it keep them, whatever is saved later.',
  security: adminSecurity,
  request: { params: templateVersionParams },
  responses: {
    200: jsonContent(AdminTemplateVersion, 'The version as it was saved.', false),
    ...errorResponses('unauthorized', 'company_not_found', 'template_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { companyId, templateId, version } = c.req.valid('param');
  const ctx = operatorContext(c, companyId);
  await requireCompany(ctx);
  // Only digits name a version: anything else is one the template never had.
  const number = /^[1-9][0-9]{0,8}$/.test(version) ? Number(version) : 0;
  return c.json(await getTemplateVersion(ctx, templateId, number), 200);
};
