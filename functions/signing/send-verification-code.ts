/**
 * POST /sign/{token}/code: sends the signer a new code (`form_token`, `lang`). Sent: 303 to the
 * page, which asks for it. Too soon: the page again saying when, 429. The provider refused: the
 * page again saying so, 503 (nothing counted against the limits). The provider did not answer:
 * the page asking for the code, which may still arrive, and saying when to ask again, 202. The
 * signer's number can get no text message (not a mobile number, or of a country the company does
 * not allow): the page again saying to ask the sender, 422.
 */
import type { Context } from 'hono';
import { sendVerificationCode } from '../../src/domain/signing/send-verification-code.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { linkHeadOf } from '../../src/signing-page/security.js';
import { verifyFormToken } from '../../src/signing-page/form-token.js';
import { formLanguageOf, formTokenOf, isTokenShaped, readForm } from '../../src/signing-page/forms.js';
import { chosenLanguage, pageLanguage, pageMessages } from '../../src/signing-page/language.js';
import { embedOriginOf } from '../../src/signing-page/embedding.js';
import { forbiddenPage, invalidLinkPage } from '../../src/signing-page/html/notice-pages.js';
import { signerContext, tokenOf } from '../../src/signing-page/link-request.js';
import type { SigningEnv } from '../../src/signing-page/signing-env.js';
import { linksOf, respondWithState } from '../../src/signing-page/respond-with-state.js';

export async function sendVerificationCodeHandler(c: Context<SigningEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  const services = c.get('services');
  const entries = await readForm(c);
  if (!entries || !(await verifyFormToken(services.config.tokenSecret, token, formTokenOf(entries))))
    return c.html(forbiddenPage(pageMessages(c, { form: entries ? formLanguageOf(entries) : null })), 403);

  const ctx = signerContext(c);
  const language = formLanguageOf(entries) ?? pageLanguage(c);
  const outcome = await sendVerificationCode(ctx, { token, language, head: linkHeadOf(c, token) });
  const back = linksOf(token, chosenLanguage(c), embedOriginOf(c)).sign;
  switch (outcome.kind) {
    case 'sent':
      return c.redirect(back, 303);
    case 'not_needed':
      return outcome.state.kind === 'invalid' ? respondWithState(c, token, outcome.state) : c.redirect(back, 303);
    case 'too_soon':
      return respondWithState(
        c,
        token,
        await openSigningLink(ctx, { token }),
        { problems: [], verification: { kind: 'too_soon', at: outcome.nextSendAt, status: 429 } },
        language,
      );
    case 'unconfirmed':
      return respondWithState(
        c,
        token,
        await openSigningLink(ctx, { token }),
        { problems: [], verification: { kind: 'unconfirmed', at: outcome.nextSendAt, status: 202 } },
        language,
      );
    case 'not_sent':
      return respondWithState(c, token, await openSigningLink(ctx, { token }), { problems: [], verification: { kind: 'not_sent', status: 503 } }, language);
    case 'number_refused':
      return respondWithState(
        c,
        token,
        await openSigningLink(ctx, { token }),
        { problems: [], verification: { kind: 'number_refused', status: 422 } },
        language,
      );
  }
}
