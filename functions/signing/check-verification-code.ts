/**
 * POST /sign/{token}/verify: the code the signer entered (`form_token`, `lang`, `code`). Right:
 * the browser keeps the proof (a cookie on the link's path, and, for a page in a frame only, the
 * page's address), 303 to the page, which opens on the document. Wrong, expired, or dead after five tries:
 * the verification step again saying so, 422.
 */
import type { Context } from 'hono';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { checkVerificationCode } from '../../src/domain/signing/check-verification-code.js';
import { linkHeadOf } from '../../src/signing-page/security.js';
import { verifyFormToken } from '../../src/signing-page/form-token.js';
import { type FormEntries, formLanguageOf, formTokenOf, isTokenShaped, readForm } from '../../src/signing-page/forms.js';
import { chosenLanguage, pageMessages } from '../../src/signing-page/language.js';
import { embedOriginOf } from '../../src/signing-page/embedding.js';
import { forbiddenPage, invalidLinkPage } from '../../src/signing-page/html/notice-pages.js';
import type { VerificationNotice } from '../../src/signing-page/html/verification-page.js';
import { inFrame, rememberProof, withProof } from '../../src/signing-page/proof-in-browser.js';
import { signerContext, tokenOf } from '../../src/signing-page/link-request.js';
import type { SigningEnv } from '../../src/signing-page/signing-env.js';
import { linksOf, respondWithState } from '../../src/signing-page/respond-with-state.js';

export async function checkVerificationCodeHandler(c: Context<SigningEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  const services = c.get('services');
  const entries = await readForm(c);
  if (!entries || !(await verifyFormToken(services.config.tokenSecret, token, formTokenOf(entries))))
    return c.html(forbiddenPage(pageMessages(c, { form: entries ? formLanguageOf(entries) : null })), 403);

  const ctx = signerContext(c);
  const back = linksOf(token, chosenLanguage(c), embedOriginOf(c)).sign;
  const refuse = async (verification: VerificationNotice) =>
    respondWithState(c, token, await openSigningLink(ctx, { token }), { problems: [], verification }, formLanguageOf(entries));
  const code = codeOf(entries);
  if (!code) return refuse({ kind: 'malformed', status: 422 });

  const outcome = await checkVerificationCode(ctx, { token, code, head: linkHeadOf(c, token) });
  switch (outcome.kind) {
    case 'verified':
      rememberProof(c, token, outcome.proof);
      return c.redirect(withProof(back, inFrame(c) ? outcome.proof : null), 303);
    case 'not_needed':
      return outcome.state.kind === 'invalid' ? respondWithState(c, token, outcome.state) : c.redirect(back, 303);
    case 'wrong':
      return refuse({ kind: outcome.triesLeft > 0 ? 'wrong' : 'dead', triesLeft: outcome.triesLeft, status: 422 });
    default:
      return refuse({ kind: outcome.kind, status: 422 });
  }
}

/** Six digits, as typed: spaces and dashes between them are forgiven, anything else is not a code. */
function codeOf(entries: FormEntries): string | null {
  const codes = entries.filter(([key]) => key === 'code').map(([, value]) => value);
  if (codes.length !== 1 || typeof codes[0] !== 'string' || codes[0].length > 20) return null;
  const digits = codes[0].replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}
