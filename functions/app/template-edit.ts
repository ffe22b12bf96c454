/**
 * GET /app/templates/{id}/edit: the builder around a saved template, its latest version's
 * settings, roles and fields over its PDF. POST /app/templates/{id}/edit: an add or a remove
 * brings the form back; a new PDF (multipart `document`) takes the saved one's place in the form,
 * the fields its pages cannot hold marked to correct; a save makes a new version
 * (saveTemplateVersion), with the new PDF if one was uploaded, else the saved one kept.
 * A form with a mistake comes back 422 with each input's message, nothing saved; another save
 * first comes back 409. Another company's, an archived one and an unknown id answer 404 alike.
 * POST /app/templates/edit, the id in the form, is the address earlier pages posted to.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { forbiddenPage, notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { type BuilderTarget, builderPage } from '../../src/company-app/html/template-builder-page.js';
import { appMessages } from '../../src/company-app/messages.js';
import { actionOf, applyAction, definitionOf, documentOf, formOfTemplate, placeErrors, readBuilderForm } from '../../src/company-app/template-builder-form.js';
import { templatesReadContext, templatesShell, templatesVerbContext } from '../../src/company-app/templates-access.js';
import { getTemplate } from '../../src/domain/templates/get-template.js';
import { saveTemplateVersion } from '../../src/domain/templates/save-template-version.js';
import { DomainError } from '../../src/errors.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { unlessNotFound } from './template-show.js';
import { MAX_BUILDER_FORM_BYTES } from './template-build.js';
import { LIMIT, MAX_UPLOAD_FORM_BYTES, storeUploadedPdf } from './template-upload.js';

/** The body a change takes: the builder's largest form and a new PDF with it. */
export const MAX_EDIT_FORM_BYTES = MAX_UPLOAD_FORM_BYTES + MAX_BUILDER_FORM_BYTES;

const REPLACE_ERRORS = { missing: 'upload.missing', notPdf: 'upload.notPdf', tooLarge: 'builder.error.replaceTooLarge' } as const;

export async function showEditTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const template = await getTemplate(templatesReadContext(c, shell), { templateId: c.req.param('id') ?? '' }).catch(unlessNotFound);
  if (!template?.document) return c.html(notFoundPage(appMessages()), 404);
  const target: BuilderTarget = { kind: 'edit', templateId: template.id, fileName: template.document.file_name, pages: template.document.pages, limit: LIMIT };
  return c.html(builderPage(appMessages(), shell, { target, form: formOfTemplate(template) }));
}

export async function saveEditedTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const entries = (await readForm(c)) ?? [];
  const templateId = c.req.param('id') ?? singleValue(entries, 'template_id') ?? '';
  // The template is read in the session's company: an id of another company's is not found.
  const template = await getTemplate(templatesReadContext(c, shell), { templateId }).catch(unlessNotFound);
  if (!template?.document) return c.html(notFoundPage(m), 404);
  // A PDF uploaded earlier in this change travels in the form, signed for this session.
  const replacement = await documentOf(c, shell, entries);
  if (!replacement && singleValue(entries, 'document_key') !== undefined) return c.html(forbiddenPage(m), 403);
  const ctx = templatesVerbContext(c, shell);
  const pages = replacement ? await ctx.services.pdf.pageSizes(replacement.stored.key) : template.document.pages;
  if (!pages || pages.length === 0) return c.html(forbiddenPage(m), 403);
  const base = { kind: 'edit' as const, templateId: template.id, fileName: template.document.file_name, limit: LIMIT };
  const target: BuilderTarget = { ...base, pages, ...(replacement ? { replacement } : {}) };
  const action = actionOf(entries);
  const form = readBuilderForm(entries);
  if (action.kind === 'replace-document') {
    const uploaded = await storeUploadedPdf(c, shell, entries);
    if ('error' in uploaded)
      return c.html(
        builderPage(m, shell, { target, form, errors: { replace_document: REPLACE_ERRORS[uploaded.error] } }),
        uploaded.error === 'tooLarge' ? 413 : 422,
      );
    const replaced: BuilderTarget = { ...base, pages: uploaded.pages, replacement: uploaded.document };
    // The fields the new pages cannot hold are marked, never dropped: the person moves them before saving.
    return c.html(builderPage(m, shell, { target: replaced, form, errors: placeErrors(form, uploaded.pages), replaced: true }));
  }
  if (action.kind !== 'save') return c.html(builderPage(m, shell, { target, form: applyAction(form, action) }));
  const checked = definitionOf(form, pages);
  if ('errors' in checked) return c.html(builderPage(m, shell, { target, form, errors: checked.errors }), 422);
  const { id: _id, ...definition } = checked.definition;
  const document = replacement ? { fileName: replacement.fileName, stored: replacement.stored } : null;
  const outcome = await saveTemplateVersion(ctx, { templateId: template.id, definition, document }).then(
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
