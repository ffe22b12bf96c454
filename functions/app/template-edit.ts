/**
 * GET /app/templates/{id}/edit: the builder around a saved template, its latest version's
 * settings, roles and fields over its PDF. POST /app/templates/edit (the id in the form): an add
 * or a remove brings the form back; a save makes a new version (saveTemplateVersion, the PDF kept).
 * A form with a mistake comes back 422 with each input's message, nothing saved; another save
 * first comes back 409. Another company's, an archived one and an unknown id answer 404 alike.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { builderPage } from '../../src/company-app/html/template-builder-page.js';
import { appMessages } from '../../src/company-app/messages.js';
import { actionOf, applyAction, definitionOf, formOfTemplate, readBuilderForm } from '../../src/company-app/template-builder-form.js';
import { templatesReadContext, templatesShell, templatesVerbContext } from '../../src/company-app/templates-access.js';
import { getTemplate } from '../../src/domain/templates/get-template.js';
import { saveTemplateVersion } from '../../src/domain/templates/save-template-version.js';
import { DomainError } from '../../src/errors.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { unlessNotFound } from './template-show.js';

export async function showEditTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const template = await getTemplate(templatesReadContext(c, shell), { templateId: c.req.param('id') ?? '' }).catch(unlessNotFound);
  if (!template?.document) return c.html(notFoundPage(appMessages()), 404);
  const target = { kind: 'edit' as const, templateId: template.id, fileName: template.document.file_name, pages: template.document.pages };
  return c.html(builderPage(appMessages(), shell, { target, form: formOfTemplate(template) }));
}

export async function saveEditedTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const entries = (await readForm(c)) ?? [];
  const templateId = singleValue(entries, 'template_id') ?? '';
  // The template is read in the session's company: an id of another company's is not found.
  const template = await getTemplate(templatesReadContext(c, shell), { templateId }).catch(unlessNotFound);
  if (!template?.document) return c.html(notFoundPage(m), 404);
  const target = { kind: 'edit' as const, templateId: template.id, fileName: template.document.file_name, pages: template.document.pages };
  const action = actionOf(entries);
  const form = readBuilderForm(entries);
  if (action.kind !== 'save') return c.html(builderPage(m, shell, { target, form: applyAction(form, action) }));
  const checked = definitionOf(form, target.pages);
  if ('errors' in checked) return c.html(builderPage(m, shell, { target, form, errors: checked.errors }), 422);
  const { id: _id, ...definition } = checked.definition;
  const outcome = await saveTemplateVersion(templatesVerbContext(c, shell), { templateId: template.id, definition, document: null }).then(
    () => 'saved' as const,
    (err: unknown) => {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'template_not_found') return 'gone' as const;
      if (err.code === 'conflict') return 'conflict' as const;
      if (err.code === 'validation_failed') return 'invalid' as const;
      throw err;
    },
  );
  if (outcome === 'gone') return c.html(notFoundPage(m), 404);
  if (outcome === 'conflict') return c.html(builderPage(m, shell, { target, form, conflict: true }), 409);
  if (outcome === 'invalid') return c.html(builderPage(m, shell, { target, form, errors: { name: 'builder.error.field.place' } }), 422);
  return c.redirect(`/app/templates/${template.id}?saved=1`, 303);
}
