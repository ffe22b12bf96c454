/**
 * POST /app/settings/brand: the display name, accent colour, default message and language. A
 * form with a mistake comes back (422) with each field's message, and nothing is changed.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { settingsShell } from '../../src/company-app/settings-access.js';
import { settingsAnswer } from '../../src/company-app/settings-answer.js';
import { brandFormOf, checkBrandForm } from '../../src/company-app/settings-forms.js';
import { appMessages } from '../../src/company-app/messages.js';
import { putBrand } from '../../src/domain/companies/brand.js';
import { readForm } from '../../src/http/page-forms.js';
import { companyChanges } from '../../src/company-app/page-access.js';

export async function saveBrand(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await settingsShell(c);
  if (shell instanceof Response) return shell;
  const form = brandFormOf((await readForm(c)) ?? []);
  const checked = checkBrandForm(appMessages(), form);
  if ('errors' in checked) return settingsAnswer(c, shell, { brandForm: { form, errors: checked.errors } }, 422);
  await putBrand(companyChanges(c, shell), checked.change);
  return c.redirect('/app/settings?saved=brand', 303);
}
