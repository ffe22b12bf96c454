/**
 * GET /app/templates/new: the upload that starts a template. POST /app/templates/new (multipart,
 * `document`): the PDF is stored and checked as the admin import's is (storeTemplateDocument: at
 * most the document store's limit; it must open), then the builder's form is shown around it.
 * A refused file comes back with why (422 not a PDF or none, 413 too large) and the store keeps
 * nothing. GET /app/templates/upload.pdf streams an upload back to the builder's script, only to
 * the session whose form carries its signature.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { builderPage } from '../../src/company-app/html/template-builder-page.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { uploadPage } from '../../src/company-app/html/templates-pages.js';
import type { Shell } from '../../src/company-app/html/layout.js';
import { appMessages } from '../../src/company-app/messages.js';
import { documentOf, emptyForm, type SignedDocument, signDocument } from '../../src/company-app/template-builder-form.js';
import type { PageSize } from '../../src/data/schema.js';
import { templatesShell, templatesVerbContext } from '../../src/company-app/templates-access.js';
import { discardTemplateDocument, storeTemplateDocument } from '../../src/domain/templates/import-template.js';
import { DomainError } from '../../src/errors.js';
import { documentAnswer } from '../../src/http/document-answer.js';
import { type FormEntries, readForm } from '../../src/http/page-forms.js';
import { isStorableText } from '../../src/lib/storable-text.js';
import { MAX_TEMPLATE_DOCUMENT_BYTES } from '../../src/ports/document-limits.js';

/** The body the upload takes: the largest PDF the store keeps and the form around it. */
export const MAX_UPLOAD_FORM_BYTES = MAX_TEMPLATE_DOCUMENT_BYTES + 64 * 1024;
export const LIMIT = `${MAX_TEMPLATE_DOCUMENT_BYTES / 1024 / 1024} MiB`;
const UNNAMED_DOCUMENT = 'document.pdf';

export async function showUpload(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  return c.html(uploadPage(appMessages(), shell, { limit: LIMIT }));
}

const refused = (c: Context<CompanyAppEnv>, shell: Shell, error: 'missing' | 'notPdf' | 'tooLarge') =>
  c.html(uploadPage(appMessages(), shell, { limit: LIMIT, error }), error === 'tooLarge' ? 413 : 422);

/**
 * The form's `document` stored and signed for this session, with its pages' sizes; or why it is
 * refused, the store then keeping nothing. The builder's replacement of a saved template's PDF
 * takes its upload the same way.
 */
export async function storeUploadedPdf(
  c: Context<CompanyAppEnv>,
  shell: Shell,
  entries: FormEntries,
): Promise<{ document: SignedDocument; pages: PageSize[] } | { error: 'missing' | 'notPdf' | 'tooLarge' }> {
  const file = entries.find(([name]) => name === 'document')?.[1];
  if (!(file instanceof File) || file.size === 0) return { error: 'missing' };
  const fileName = isStorableText(file.name) && file.name.trim() !== '' ? file.name.slice(0, 255) : UNNAMED_DOCUMENT;
  const ctx = templatesVerbContext(c, shell);
  const stored = await storeTemplateDocument(ctx, { fileName, bytes: new Uint8Array(await file.arrayBuffer()) }).catch((err: unknown) => {
    if (err instanceof DomainError && err.code === 'payload_too_large') return null;
    throw err;
  });
  if (!stored) return { error: 'tooLarge' };
  const pages = await ctx.services.pdf.pageSizes(stored.key);
  if (!pages || pages.length === 0) {
    await discardTemplateDocument(ctx, stored);
    return { error: 'notPdf' };
  }
  return { document: await signDocument(c, shell, { fileName, stored }), pages };
}

export async function uploadTemplateDocument(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const uploaded = await storeUploadedPdf(c, shell, (await readForm(c)) ?? []);
  if ('error' in uploaded) return refused(c, shell, uploaded.error);
  const { document, pages } = uploaded;
  const form = { ...emptyForm(), name: document.fileName.replace(/\.pdf$/i, '').slice(0, 250) };
  return c.html(builderPage(appMessages(), shell, { target: { kind: 'new', document, pages }, form }));
}

export async function downloadUpload(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await templatesShell(c, 'templates:manage');
  if (shell instanceof Response) return shell;
  const query = c.req.query();
  const entries: [string, string][] = [
    ['document_key', query.key ?? ''],
    ['document_size', query.size ?? ''],
    ['document_sha256', query.sha256 ?? ''],
    ['document_name', query.name ?? ''],
    ['document_mac', query.mac ?? ''],
  ];
  const document = await documentOf(c, shell, entries);
  if (!document) return c.html(notFoundPage(appMessages()), 404);
  return documentAnswer(c.get('services').documents, document.stored, c.req.raw.headers, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': 'inline',
    'X-Document-SHA256': document.stored.sha256,
  });
}
