/** GET /sign/{token}: the page of the link's state; the first open records "viewed". */
import type { Context } from 'hono';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { isTokenShaped } from '../../src/http/signing-form.js';
import { pageMessages } from '../../src/http/signing-language.js';
import { invalidLinkPage } from '../../src/http/signing-page/notice-pages.js';
import { linkHeadOf } from '../../src/http/signing-security.js';
import { pageLookOf, respondWithState, signerOf, tokenOf } from './signing-page.js';

export async function showSigningPage(c: Context<AppEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  // The brand is read beside the rest of the link, which goes on from the guard's first read of it.
  const look = pageLookOf(c, token);
  return respondWithState(c, token, await openSigningLink(c.get('services'), token, signerOf(c), linkHeadOf(c, token)), undefined, null, look);
}
