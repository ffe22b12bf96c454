/** GET /sign/{token}: the page of the link's state; the first open records "viewed". */
import type { Context } from 'hono';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { isTokenShaped } from '../../src/signing-page/forms.js';
import { pageMessages } from '../../src/signing-page/language.js';
import { invalidLinkPage } from '../../src/signing-page/html/notice-pages.js';
import { linkHeadOf } from '../../src/signing-page/security.js';
import { signerContext, tokenOf } from '../../src/signing-page/link-request.js';
import type { SigningEnv } from '../../src/signing-page/signing-env.js';
import { pageLookOf, respondWithState } from '../../src/signing-page/respond-with-state.js';

export async function showSigningPage(c: Context<SigningEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  // The brand is read beside the rest of the link, which goes on from the guard's first read of it.
  const look = pageLookOf(c, token);
  const state = await openSigningLink(signerContext(c), { token, head: linkHeadOf(c, token) });
  return respondWithState(c, token, state, undefined, null, look);
}
