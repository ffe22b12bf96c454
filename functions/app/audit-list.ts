/**
 * GET /app/audit: the company's audit trail, for its owners and administrators (`audit:read`);
 * any other role is refused with a page (403). The page of rows and the company's people (the
 * filter's choices) are read in one wave. A filter that cannot be read, or a person who is not one
 * of the company's, answers 400 with the form marked and no rows.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { readAuditQuery } from '../../src/company-app/audit-query.js';
import { auditPage, auditRefusedPage } from '../../src/company-app/html/audit-page.js';
import { appMessages } from '../../src/company-app/messages.js';
import { companyReads, permittedShell } from '../../src/company-app/page-access.js';
import { auditPeople, companyAuditLog } from '../../src/domain/audit/company-audit-log.js';

export async function showAuditLog(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await permittedShell(c, 'audit:read', auditRefusedPage);
  if (shell instanceof Response) return shell;
  const list = readAuditQuery((name) => c.req.query(name));
  const ctx = companyReads(c, shell);
  const [people, page] = await Promise.all([auditPeople(ctx), list.problems.length > 0 ? null : companyAuditLog(ctx, list.query)]);
  if (list.query.userId && !people.some((person) => person.id === list.query.userId)) list.problems.push('user');
  const refused = list.problems.length > 0;
  return c.html(auditPage(appMessages(), shell, { list, people, page: refused ? null : page }), refused ? 400 : 200);
}
