/** GET /sign/{token}: the page of the link's state; the first open records "viewed". */
import type { Context } from 'hono';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { isTokenShaped } from '../../src/signing-page/forms.js';
import { pageMessages } from '../../src/signing-page/language.js';
import { invalidLinkPage } from '../../src/signing-page/html/notice-pages.js';
import { linkHeadOf } from '../../src/signing-page/security.js';
import { signerOf, tokenOf } from '../../src/signing-page/link-request.js';
import { pageLookOf, respondWithState } from '../../src/signing-page/respond-with-state.js';

export async function showSigningPage(c: Context<AppEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  // The brand is read beside the rest of the link, which goes on from the guard's first read of it.
  const look = pageLookOf(c, token);
  return respondWithState(c, token, await openSigningLink(c.get('services'), token, signerOf(c), linkHeadOf(c, token)), undefined, null, look);
}
