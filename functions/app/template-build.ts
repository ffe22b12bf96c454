/**
 * POST /app/templates/new/build: the builder's form. An add or a remove brings the form back with
 * the row added or removed; a save checks the form by the template's own rules (and every field
 * inside its page) and imports the template, version 1, with its uploaded PDF. A form with a
 * mistake comes back 422 with each input's message, nothing saved. The PDF is the one the form's
 * signature names: a forged or another session's document answers 403.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { builderPage } from '../../src/company-app/html/template-builder-page.js';
import { forbiddenPage } from '../../src/company-app/html/notice-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { actionOf, applyAction, definitionOf, documentOf, readBuilderForm } from '../../src/company-app/template-builder-form.js';
import { templatesShell, templatesVerbContext } from '../../src/company-app/templates-access.js';
import { importTemplate } from '../../src/domain/templates/import-template.js';
import { DomainError } from '../../src/errors.js';
import { readForm } from '../../src/http/page-forms.js';

/** The builder's form with its largest number of rows (50 roles, 500 fields). */
export const MAX_BUILDER_FORM_BYTES = 512 * 1024;

export async function buildTemplate(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const entries = (await readForm(c)) ?? [];
  const document = await documentOf(c, shell, entries);
  if (!document) return c.html(forbiddenPage(m), 403);
  const ctx = templatesVerbContext(c, shell);
  const pages = await ctx.services.pdf.pageSizes(document.stored.key);
  if (!pages || pages.length === 0) return c.html(forbiddenPage(m), 403);
  const target = { kind: 'new' as const, document, pages };
  const action = actionOf(entries);
  const form = readBuilderForm(entries);
  if (action.kind !== 'save') return c.html(builderPage(m, shell, { target, form: applyAction(form, action) }));
  const checked = definitionOf(form, pages);
  if ('errors' in checked) return c.html(builderPage(m, shell, { target, form, errors: checked.errors }), 422);
  const saved = await importTemplate(ctx, { definition: checked.definition, document, actor: { type: 'user', id: shell.session.user.id } }).catch(
    (err: unknown) => {
      if (err instanceof DomainError && err.code === 'validation_failed') return null;
      throw err;
    },
  );
  if (!saved) return c.html(builderPage(m, shell, { target, form, errors: { name: 'builder.error.field.place' } }), 422);
  return c.redirect(`/app/templates/${saved.id}?saved=1`, 303);
}
