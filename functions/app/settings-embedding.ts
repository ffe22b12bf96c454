/**
 * POST /app/settings/embedding: the origins allowed to frame the company's signing pages, one per
 * line. A line that is not an origin (or one given twice, or too many) comes back (422) with its
 * message, and the list is unchanged.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { appMessages } from '../../src/company-app/messages.js';
import { settingsShell } from '../../src/company-app/settings-access.js';
import { settingsAnswer } from '../../src/company-app/settings-answer.js';
import { checkOrigins, originLines } from '../../src/company-app/settings-forms.js';
import { putEmbedding } from '../../src/domain/companies/embedding.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { companyChanges } from '../../src/company-app/page-access.js';

export async function saveEmbedding(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await settingsShell(c);
  if (shell instanceof Response) return shell;
  const text = singleValue((await readForm(c)) ?? [], 'allowed_origins') ?? '';
  const checked = checkOrigins(appMessages(), c.get('services').config, originLines(text));
  if ('errors' in checked) return settingsAnswer(c, shell, { originsForm: { text: text.slice(0, 10_000), errors: checked.errors } }, 422);
  // The domain checks the list again with the same rules: the form's words are only its messages.
  await putEmbedding(companyChanges(c, shell), { raw: checked.origins });
  return c.redirect('/app/settings?saved=embedding', 303);
}
