/**
 * POST /app/keys/{id}/rotate: a new secret for the key, shown on this answer only; the old key and
 * every token from it stop working on their next request (the verb bumps the key's version).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { keyShownPage } from '../../src/company-app/html/keys-pages.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { keysShell } from '../../src/company-app/keys-access.js';
import { appMessages } from '../../src/company-app/messages.js';
import { appVerbContext } from '../../src/company-app/session.js';
import { companyApiKey } from '../../src/domain/auth/company-api-keys.js';
import { rotateApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { DomainError } from '../../src/errors.js';
import { companyReads } from '../../src/company-app/page-access.js';

export async function rotateKey(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await keysShell(c);
  if (shell instanceof Response) return shell;
  const m = appMessages();
  // The key must be one of the session's company: the verb alone would find any company's.
  const key = await companyApiKey(companyReads(c, shell), c.req.param('id') ?? '');
  if (key?.status !== 'active') return c.html(notFoundPage(m), 404);
  // The key was just read among the company's: the verb need not find its company again.
  const rotated = await rotateApiKey({ ...appVerbContext(c), companyId: shell.session.user.companyId }, { apiKeyId: key.id }).catch(revokedMeanwhile);
  if (!rotated) return c.html(notFoundPage(m), 404);
  return c.html(keyShownPage(m, shell, { key: rotated.key, name: key.name, rotated: true }));
}

/** A key revoked between the read and the rotation is not found, as a revoked key is. */
function revokedMeanwhile(err: unknown): null {
  if (err instanceof DomainError && err.code === 'api_key_not_found') return null;
  throw err;
}
