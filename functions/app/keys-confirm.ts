/**
 * GET /app/keys/{id}/rotate and /app/keys/{id}/revoke: the confirmation before either, a page with
 * one button, so that it works without script. Another company's key is not found (404), as a
 * revoked one is: neither can be rotated or revoked.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { confirmKeyPage } from '../../src/company-app/html/keys-pages.js';
import { notFoundPage } from '../../src/company-app/html/notice-pages.js';
import { keysShell } from '../../src/company-app/keys-access.js';
import { appMessages } from '../../src/company-app/messages.js';
import { companyApiKey } from '../../src/domain/auth/company-api-keys.js';
import { companyReads } from '../../src/company-app/page-access.js';

const confirm = (action: 'rotate' | 'revoke') =>
  async function confirmKeyAction(c: Context<CompanyAppEnv>): Promise<Response> {
    const shell = await keysShell(c);
    if (shell instanceof Response) return shell;
    const m = appMessages();
    const key = await companyApiKey(companyReads(c, shell), c.req.param('id') ?? '');
    if (key?.status !== 'active') return c.html(notFoundPage(m), 404);
    return c.html(confirmKeyPage(m, shell, { key, action }));
  };

export const confirmRotateKey = confirm('rotate');
export const confirmRevokeKey = confirm('revoke');
