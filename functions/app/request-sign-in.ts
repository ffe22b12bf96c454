/**
 * POST /app/sign-in: asks for a sign-in link. One page for every address, a user's or not, within
 * the limits or past them: nobody learns from it who has an account. The e-mail, when there is
 * one, goes out after the answer.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { formTokenFor } from '../../src/company-app/form-token.js';
import { checkEmailPage, signInPage } from '../../src/company-app/html/sign-in-pages.js';
import { appMessages } from '../../src/company-app/messages.js';
import { appVerbContext } from '../../src/company-app/session.js';
import { requestSignInLink } from '../../src/domain/app-access/sign-in-links.js';
import { emailAddress } from '../../src/domain/shared/text-fields.js';
import { afterResponse } from '../../src/http/after-response.js';
import { clientIpOf } from '../../src/http/client-ip.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { logError } from '../../src/lib/log-error.js';

export async function requestSignIn(c: Context<CompanyAppEnv>): Promise<Response> {
  const m = appMessages();
  const typed = singleValue((await readForm(c)) ?? [], 'email')?.trim() ?? '';
  const email = emailAddress().safeParse(typed);
  if (!email.success) return c.html(signInPage(m, { formToken: await formTokenFor(c), email: typed.slice(0, 150), invalid: true }), 422);
  const requested = await requestSignInLink(appVerbContext(c), { email: email.data, client: clientIpOf(c) });
  if (requested.outcome === 'sent') {
    afterResponse(c, () => requested.deliver().catch((err) => logError('the sign-in e-mail could not be sent', err)));
  }
  return c.html(checkEmailPage(m, email.data));
}
