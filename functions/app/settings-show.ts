/** GET /app/settings: the brand, the logo, the e-mail preview, the embedding origins and the usage. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import type { SettingsSaved } from '../../src/company-app/html/settings-page.js';
import { settingsShell } from '../../src/company-app/settings-access.js';
import { settingsAnswer } from '../../src/company-app/settings-answer.js';

const savedKinds: readonly SettingsSaved[] = ['brand', 'logo', 'logoRemoved', 'embedding'];

export async function showSettings(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await settingsShell(c);
  if (shell instanceof Response) return shell;
  // After a save the page says what was saved (a redirect's address, never anything posted).
  const saved = savedKinds.find((kind) => kind === c.req.query('saved'));
  return settingsAnswer(c, shell, { saved });
}
