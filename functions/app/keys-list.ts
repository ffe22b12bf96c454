/** GET /app/keys: the company's API keys, for its owners and administrators. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { keysListPage } from '../../src/company-app/html/keys-pages.js';
import { keysShell } from '../../src/company-app/keys-access.js';
import { appMessages } from '../../src/company-app/messages.js';
import { companyApiKeys, KEYS_SHOWN } from '../../src/domain/auth/company-api-keys.js';
import { companyReads } from '../../src/company-app/page-access.js';

export async function showKeys(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await keysShell(c);
  if (shell instanceof Response) return shell;
  const keys = await companyApiKeys(companyReads(c, shell));
  // After a revoke the list names the key it revoked, found among the company's own keys only.
  const revokedId = c.req.query('revoked');
  const revoked = keys.find((key) => key.id === revokedId && key.status === 'revoked');
  const m = appMessages();
  return c.html(keysListPage(m, shell, { keys, shown: KEYS_SHOWN, revoked: revoked ? (revoked.name ?? m.text('keys.unnamed')) : undefined }));
}
