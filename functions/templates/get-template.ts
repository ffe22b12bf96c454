import { z } from '@hono/zod-openapi';
import { getTemplate } from '../../src/domain/templates/get-template.js';
import { type EndpointHandler, endpointRoute } from '../../src/http/endpoint-route.js';
import { guard, keyChecked } from '../../src/http/authenticate.js';
import { authErrors, bearerSecurity, errorResponses, jsonContent } from '../../src/http/openapi-helpers.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { TemplateDetail } from './template-schemas.js';

export const route = endpointRoute({
  operationId: 'getTemplate',
  tags: ['Templates'],
  summary: 'Get one template with its roles',
  security: bearerSecurity,
  middleware: guard('templates:read', rateRules.other),
  request: { params: z.object({ id: z.string().openapi({ format: 'uuid' }) }) },
  responses: {
    200: jsonContent(TemplateDetail, 'The template, its roles, inherited settings and field layout.'),
    ...errorResponses(...authErrors, 'template_not_found'),
  },
});

export const handler: EndpointHandler<typeof route> = async (c) => {
  const { id } = c.req.valid('param');
  // The template is read while the key is checked: one round trip for both.
  const { value: template } = await keyChecked(c, (scope) => getTemplate(scope, { templateId: id }));
  return c.json(template, 200);
};
