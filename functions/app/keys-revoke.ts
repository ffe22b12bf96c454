/**
 * POST /app/keys/{id}/revoke: the key and every token from it stop working on their next request.
 * A key revoked already (a second click) goes back to the list, as the first revoke did.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { keysShell } from '../../src/company-app/keys-access.js';
import { appMessages } from '../../src/company-app/messages.js';
import { appVerbContext } from '../../src/company-app/session.js';
import { companyApiKey } from '../../src/domain/auth/company-api-keys.js';
import { revokeApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { DomainError } from '../../src/errors.js';
import { companyReads } from '../../src/company-app/page-access.js';

export async function revokeKey(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await keysShell(c);
  if (shell instanceof Response) return shell;
  // The key must be one of the session's company: the verb alone would find any company's.
  const key = await companyApiKey(companyReads(c, shell), c.req.param('id') ?? '');
  if (!key) return c.html(notFoundPage(appMessages()), 404);
  // The key was just read among the company's: the verb need not find its company again. Revoked
  // by someone else in the meantime, it is revoked all the same: the list says so.
  if (key.status === 'active')
    await revokeApiKey({ ...appVerbContext(c), companyId: shell.session.user.companyId }, { apiKeyId: key.id }).catch((err: unknown) => {
      if (!(err instanceof DomainError && err.code === 'api_key_not_found')) throw err;
    });
  return c.redirect(`/app/keys?revoked=${encodeURIComponent(key.id)}`, 303);
}
