/**
 * GET /app/templates/{id}/archive asks to confirm; its button posts. Archiving takes the template
 * out of the list, the API and new sends; envelopes sent from it finish as usual. Another
 * company's, an archived one and an unknown id answer 404 alike.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { archivePage } from '../../src/company-app/html/templates-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { templatesReadContext, templatesShell, templatesVerbContext } from '../../src/company-app/templates-access.js';
import { archiveTemplate } from '../../src/domain/templates/archive-template.js';
import { getTemplate } from '../../src/domain/templates/get-template.js';
import { unlessNotFound } from './template-show.js';

export async function confirmArchiveTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const template = await getTemplate(templatesReadContext(c, shell), { templateId: c.req.param('id') ?? '' }).catch(unlessNotFound);
  if (!template) return c.html(notFoundPage(appMessages()), 404);
  return c.html(archivePage(appMessages(), shell, template));
}

export async function archiveTemplatePost(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const archived = await archiveTemplate(templatesVerbContext(c, shell), { templateId: c.req.param('id') ?? '' }).catch(unlessNotFound);
  if (!archived) return c.html(notFoundPage(appMessages()), 404);
  return c.redirect('/app/templates?archived=1', 303);
}
