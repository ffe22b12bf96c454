/**
 * POST /sign/{token}: the signing form (`form_token`, `consent=yes`, `field.<id>` per field; a
 * drawn signature is a PNG data URL in its field). Signed, or whatever came of it: 303 to the
 * page. Refused: the sign page again with the problems, 422.
 */
import type { Context } from 'hono';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { SigningRefused } from '../../src/domain/signing/signing-state.js';
import { linkHeadOf } from '../../src/signing-page/security.js';
import { verifyFormToken } from '../../src/signing-page/form-token.js';
import { formLanguageOf, formTokenOf, isTokenShaped, readForm, readSignForm, valuesShownAgain } from '../../src/signing-page/forms.js';
import { chosenLanguage, pageLanguage, pageMessages } from '../../src/signing-page/language.js';
import { embedOriginOf } from '../../src/signing-page/embedding.js';
import { proofInAddress, withProof } from '../../src/signing-page/proof-in-browser.js';
import { forbiddenPage, invalidLinkPage } from '../../src/signing-page/html/notice-pages.js';
import { signerContext, tokenOf } from '../../src/signing-page/link-request.js';
import type { SigningEnv } from '../../src/signing-page/signing-env.js';
import { linksOf, respondWithState } from '../../src/signing-page/respond-with-state.js';

export async function submitSignature(c: Context<SigningEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  const services = c.get('services');
  const entries = await readForm(c);
  if (!entries || !(await verifyFormToken(services.config.tokenSecret, token, formTokenOf(entries))))
    return c.html(forbiddenPage(pageMessages(c, { form: entries ? formLanguageOf(entries) : null })), 403);

  const ctx = signerContext(c);
  // Our page always sends its language; a form without one is taken in the request's language.
  const language = formLanguageOf(entries) ?? pageLanguage(c);
  const form = readSignForm(entries, language);
  const refuse = async (problems: SigningRefused['problems']) =>
    respondWithState(
      c,
      token,
      await openSigningLink(ctx, { token }),
      { problems, values: valuesShownAgain(form.submission.values), consentGiven: form.consentGiven },
      language,
    );
  if (form.problems.length > 0) return refuse(form.problems);
  try {
    await signAsRecipient(ctx, { token, submission: form.submission, head: linkHeadOf(c, token) });
  } catch (err) {
    if (err instanceof SigningRefused) return refuse(err.problems);
    throw err;
  }
  return c.redirect(withProof(linksOf(token, chosenLanguage(c), embedOriginOf(c)).sign, proofInAddress(c)), 303);
}
