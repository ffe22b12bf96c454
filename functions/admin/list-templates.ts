import { listTemplates } from '../../src/domain/templates/list-templates.js';
import { TemplateSummary } from '../templates/template-schemas.js';
import { companyListHandler, companyListRoute } from './company-list.js';

export const route = companyListRoute(
  'adminListTemplates',
  'List the templates of a company (their latest versions; archived ones are left out)',
  TemplateSummary,
);
export const handler = companyListHandler(listTemplates);
