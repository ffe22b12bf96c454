/**
 * GET /app/templates/{id}: one template of the company (settings, roles, fields, versions); GET
 * /app/templates/{id}/document.pdf its latest PDF, which the builder draws the pages from. Another
 * company's template, an archived one and an unknown id answer 404 alike.
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
import { listTemplateVersions } from '../../src/domain/templates/template-versions.js';
import { DomainError } from '../../src/errors.js';
import { documentAnswer } from '../../src/http/document-answer.js';
import { isUuid } from '../../src/lib/ids.js';

/** null for a template that is not the company's to see. */
export const unlessNotFound = (err: unknown) => {
  if (err instanceof DomainError && err.code === 'template_not_found') return null;
  throw err;
};

export async function showTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c);
  if (shell instanceof Response) return shell;
  const ctx = templatesReadContext(c, shell);
  const templateId = c.req.param('id') ?? '';
  // The template and its versions are read together: one wave.
  const [template, versions] = await Promise.all([
    getTemplate(ctx, { templateId }).catch(unlessNotFound),
    listTemplateVersions(ctx, { templateId }).catch(unlessNotFound),
  ]);
  if (!template || !versions) return c.html(notFoundPage(appMessages()), 404);
  return c.html(
    templatePage(appMessages(), shell, {
      template,
      versions,
      mayManage: can(shell.session.user.role, 'templates:manage'),
      saved: c.req.query('saved') === '1',
    }),
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
