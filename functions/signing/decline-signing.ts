/**
 * POST /sign/{token}/decline: `form_token` and `reason` (required, at most 500 characters).
 * Declined, or whatever came of it: 303 to the page. Refused: the sign page with the problem, 422.
 */
import type { Context } from 'hono';
import { declineAsRecipient } from '../../src/domain/signing/decline-as-recipient.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { SigningRefused } from '../../src/domain/signing/signing-state.js';
import { linkHeadOf } from '../../src/signing-page/security.js';
import { verifyFormToken } from '../../src/signing-page/form-token.js';
import { formLanguageOf, formTokenOf, isTokenShaped, readDeclineForm, readForm } from '../../src/signing-page/forms.js';
import { chosenLanguage, pageMessages } from '../../src/signing-page/language.js';
import { embedOriginOf } from '../../src/signing-page/embedding.js';
import { proofInAddress, withProof } from '../../src/signing-page/proof-in-browser.js';
import { forbiddenPage, invalidLinkPage } from '../../src/signing-page/html/notice-pages.js';
import { signerContext, tokenOf } from '../../src/signing-page/link-request.js';
import type { SigningEnv } from '../../src/signing-page/signing-env.js';
import { linksOf, respondWithState } from '../../src/signing-page/respond-with-state.js';

export async function declineSigning(c: Context<SigningEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  const services = c.get('services');
  const entries = await readForm(c);
  if (!entries || !(await verifyFormToken(services.config.tokenSecret, token, formTokenOf(entries))))
    return c.html(forbiddenPage(pageMessages(c, { form: entries ? formLanguageOf(entries) : null })), 403);

  const form = readDeclineForm(entries);
  const ctx = signerContext(c);
  const refuse = async (problems: SigningRefused['problems']) =>
    respondWithState(c, token, await openSigningLink(ctx, { token }), { problems, reason: form.reason }, formLanguageOf(entries));
  if (form.problems.length > 0) return refuse(form.problems);
  try {
    await declineAsRecipient(ctx, { token, reason: form.reason, head: linkHeadOf(c, token) });
  } catch (err) {
    if (err instanceof SigningRefused) return refuse(err.problems);
    throw err;
  }
  return c.redirect(withProof(linksOf(token, chosenLanguage(c), embedOriginOf(c)).sign, proofInAddress(c)), 303);
}
