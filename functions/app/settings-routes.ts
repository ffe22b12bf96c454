/** The settings and usage pages of the application, their paths relative to `/app` (functions/routes.ts mounts them). */
import type { AppPageRoute } from '../../src/company-app/company-app.js';
import { saveBrand } from './settings-brand.js';
import { showEmailPreview } from './settings-email-preview.js';
import { saveEmbedding } from './settings-embedding.js';
import { MAX_LOGO_FORM_BYTES, removeLogo, uploadLogo } from './settings-logo.js';
import { showSettings } from './settings-show.js';

export const settingsRoutes: AppPageRoute[] = [
  ['/settings', 'GET', showSettings],
  ['/settings/brand', 'POST', saveBrand],
  // The one form that carries a file: its body may be as large as the largest logo.
  ['/settings/logo', 'POST', uploadLogo, { maxBodyBytes: MAX_LOGO_FORM_BYTES }],
  ['/settings/logo/remove', 'POST', removeLogo],
  ['/settings/embedding', 'POST', saveEmbedding],
  ['/settings/email-preview', 'GET', showEmailPreview],
];
