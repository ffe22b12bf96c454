/** GET /app/keys/new: the form that makes an API key. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { newKeyPage } from '../../src/company-app/html/keys-pages.js';
import { keysShell } from '../../src/company-app/keys-access.js';
import { appMessages } from '../../src/company-app/messages.js';
import { possibleKeyOwners } from '../../src/domain/auth/company-api-keys.js';
import { companyReads } from '../../src/company-app/page-access.js';

export async function showNewKey(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await keysShell(c);
  if (shell instanceof Response) return shell;
  const owners = await possibleKeyOwners(companyReads(c, shell));
  return c.html(newKeyPage(appMessages(), shell, { owners }));
}
