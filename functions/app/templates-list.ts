/** GET /app/templates: the company's templates, to every role; those who may build see the way to. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { templatesListPage } from '../../src/company-app/html/templates-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { templatesReadContext, templatesShell } from '../../src/company-app/templates-access.js';
import { can } from '../../src/domain/app-access/roles.js';
import { companyTemplates, TEMPLATES_SHOWN } from '../../src/domain/templates/company-templates.js';

export async function showTemplates(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c);
  if (shell instanceof Response) return shell;
  const { templates, more } = await companyTemplates(templatesReadContext(c, shell));
  return c.html(
    templatesListPage(appMessages(), shell, {
      templates,
      more,
      shown: TEMPLATES_SHOWN,
      mayManage: can(shell.session.user.role, 'templates:manage'),
      archived: c.req.query('archived') === '1',
    }),
  );
}
