/**
 * POST /app/settings/logo (multipart, `logo`): a PNG or JPEG, checked and redrawn as the brand
 * keeps every logo; a file refused comes back (422) with why, and the logo is unchanged.
 * POST /app/settings/logo/remove takes the logo away.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { appMessages } from '../../src/company-app/messages.js';
import { settingsShell } from '../../src/company-app/settings-access.js';
import { settingsAnswer } from '../../src/company-app/settings-answer.js';
import { checkLogoUpload } from '../../src/company-app/settings-forms.js';
import { putBrand } from '../../src/domain/companies/brand.js';
import { readForm } from '../../src/http/page-forms.js';
import { MAX_LOGO_BYTES } from '../../src/lib/brand-logo.js';
import { companyChanges } from '../../src/company-app/page-access.js';

/** The body the upload takes: the largest logo and the form around it (its token, the part headers). */
export const MAX_LOGO_FORM_BYTES = MAX_LOGO_BYTES + 16 * 1024;

export async function uploadLogo(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await settingsShell(c);
  if (shell instanceof Response) return shell;
  const upload = await checkLogoUpload(appMessages(), (await readForm(c)) ?? []);
  if ('error' in upload) return settingsAnswer(c, shell, { logoError: upload.error }, 422);
  await putBrand(companyChanges(c, shell), { logo: upload.logo });
  return c.redirect('/app/settings?saved=logo', 303);
}

export async function removeLogo(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await settingsShell(c);
  if (shell instanceof Response) return shell;
  await putBrand(companyChanges(c, shell), { logo: null });
  return c.redirect('/app/settings?saved=logoRemoved', 303);
}
