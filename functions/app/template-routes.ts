/** The templates pages and the builder, their paths relative to `/app` (functions/routes.ts mounts them). */
import type { AppPageRoute } from '../../src/company-app/company-app.js';
import { archiveTemplatePost, confirmArchiveTemplate } from './template-archive.js';
import { buildTemplate, MAX_BUILDER_FORM_BYTES } from './template-build.js';
import { MAX_EDIT_FORM_BYTES, saveEditedTemplate, showEditTemplate } from './template-edit.js';
import { downloadTemplateDocument, showTemplate } from './template-show.js';
import { downloadUpload, MAX_UPLOAD_FORM_BYTES, showUpload, uploadTemplateDocument } from './template-upload.js';
import { showTemplates } from './templates-list.js';

export const templateRoutes: AppPageRoute[] = [
  ['/templates', 'GET', showTemplates],
  ['/templates/new', 'GET', showUpload],
  // The form that carries the PDF: its body may be as large as the largest document the store keeps.
  ['/templates/new', 'POST', uploadTemplateDocument, { maxBodyBytes: MAX_UPLOAD_FORM_BYTES }],
  // The builder's forms, with up to 50 roles and 500 fields: larger than the other forms.
  ['/templates/new/build', 'POST', buildTemplate, { maxBodyBytes: MAX_BUILDER_FORM_BYTES }],
  // The address a change posted to before it took the id in its path.
  ['/templates/edit', 'POST', saveEditedTemplate, { maxBodyBytes: MAX_EDIT_FORM_BYTES }],
  ['/templates/upload.pdf', 'GET', downloadUpload],
  ['/templates/:id', 'GET', showTemplate],
  ['/templates/:id/document.pdf', 'GET', downloadTemplateDocument],
  ['/templates/:id/edit', 'GET', showEditTemplate],
  // A change, with a new PDF if one replaces the saved one: the builder's form and the largest document.
  ['/templates/:id/edit', 'POST', saveEditedTemplate, { maxBodyBytes: MAX_EDIT_FORM_BYTES }],
  ['/templates/:id/archive', 'GET', confirmArchiveTemplate],
  ['/templates/:id/archive', 'POST', archiveTemplatePost],
];
