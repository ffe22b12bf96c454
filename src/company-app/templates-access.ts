/**
 * Who may reach the templates pages: every signed-in role reads them (`templates:read`); building
 * and changing a template is `templates:manage`, and any other role gets the templates' refusal
 * page on the builder's pages and on a forged post alike (page-access.ts).
 */
import type { Context } from 'hono';
import type { Permission } from '../domain/app-access/roles.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { templatesRefusedPage } from './html/templates-pages.js';
import { companyChanges, companyReads, permittedShell } from './page-access.js';

/** The shell of a user whose role has `permission`, framed as a templates page, or the answer for anyone else. */
export async function templatesShell(c: Context<CompanyAppEnv>, permission: Permission = 'templates:read'): Promise<Shell | Response> {
  const shell = await permittedShell(c, permission, templatesRefusedPage);
  return shell instanceof Response ? shell : { ...shell, current: 'templates' };
}

export const templatesReadContext = companyReads;
export const templatesVerbContext = companyChanges;
