/** GET /app/envelopes/{id}: one envelope of the company; another company's, or none, the 404 page. */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { showEnvelope } from '../../src/company-app/envelope-answer.js';
import { toSignIn } from '../../src/company-app/return-path.js';
import { shellOf } from '../../src/company-app/session.js';

export async function showEnvelopePage(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await shellOf(c);
  if (!shell) return toSignIn(c);
  const done = c.req.query('done');
  return showEnvelope(c, shell, c.req.param('id') ?? '', done === 'voided' || done === 'reminded' ? { kind: done } : undefined);
}
