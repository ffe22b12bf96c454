/**
 * GET /app/templates/{id}: one template of the company (settings, roles, fields); GET
 * /app/templates/{id}/document.pdf its PDF, which the builder draws the pages from. Another
 * company's template answers 404 as an unknown one does.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { templatePage } from '../../src/company-app/html/templates-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { templatesReadContext, templatesShell } from '../../src/company-app/templates-access.js';
import { can } from '../../src/domain/app-access/roles.js';
import { templateDocumentOf } from '../../src/domain/templates/company-templates.js';
import { getTemplate } from '../../src/domain/templates/get-template.js';
import { DomainError } from '../../src/errors.js';
import { documentAnswer } from '../../src/http/document-answer.js';
import { isUuid } from '../../src/lib/ids.js';

export async function showTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c);
  if (shell instanceof Response) return shell;
  const template = await getTemplate(templatesReadContext(c, shell), { templateId: c.req.param('id') ?? '' }).catch((err: unknown) => {
    if (err instanceof DomainError && err.code === 'template_not_found') return null;
    throw err;
  });
  if (!template) return c.html(notFoundPage(appMessages()), 404);
  return c.html(
    templatePage(appMessages(), shell, { template, mayManage: can(shell.session.user.role, 'templates:manage'), saved: c.req.query('saved') === '1' }),
  );
}

export async function downloadTemplateDocument(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c);
  if (shell instanceof Response) return shell;
  const templateId = c.req.param('id') ?? '';
  const document = isUuid(templateId) ? await templateDocumentOf(templatesReadContext(c, shell), { templateId }) : null;
  if (!document) return c.html(notFoundPage(appMessages()), 404);
  return documentAnswer(c.get('services').documents, document.stored, c.req.raw.headers, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': 'inline',
    'X-Document-SHA256': document.stored.sha256,
  });
}
