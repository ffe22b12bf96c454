/**
 * GET /app/envelopes: the company's envelopes, newest first, filtered by the query's fields. The
 * page and the filters' choices are read in one wave. A filter that cannot be read answers 400 with
 * the form marked, and no list.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { readEnvelopeQuery } from '../../src/company-app/envelope-query.js';
import { envelopeListPage } from '../../src/company-app/html/envelope-list-page.js';
import { appMessages } from '../../src/company-app/messages.js';
import { toSignIn } from '../../src/company-app/return-path.js';
import { shellOf } from '../../src/company-app/session.js';
import { envelopeFilterChoices, listCompanyEnvelopes } from '../../src/domain/envelopes/company-envelopes.js';

export async function showEnvelopeList(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await shellOf(c);
  if (!shell) return toSignIn(c);
  const query = readEnvelopeQuery((name) => c.req.query(name));
  const services = c.get('services');
  const ctx = { services, now: services.clock.now(), companyId: shell.session.user.companyId };
  const [choices, page] = await Promise.all([
    envelopeFilterChoices(ctx),
    query.problems.length > 0 ? null : listCompanyEnvelopes(ctx, { filters: query.filters, page: query.page, perPage: query.perPage }),
  ]);
  return c.html(envelopeListPage(appMessages(), shell, { query, choices, page }), query.problems.length > 0 ? 400 : 200);
}
