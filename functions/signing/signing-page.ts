/**
 * What the signing handlers share: the link's token, who is acting, and the page for a state.
 */
import type { Context } from 'hono';
import type { SignerContext, SigningState } from '../../src/domain/signing/signing-state.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { formToken } from '../../src/http/form-token.js';
import { type Problem, signPage } from '../../src/http/signing-page/sign-page.js';
import { statePage } from '../../src/http/signing-page/state-pages.js';

/** How much of the user agent goes to the audit trail. */
const MAX_USER_AGENT_CHARS = 500;

export const tokenOf = (c: Context<AppEnv>) => c.req.param('token') ?? '';

export function signerOf(c: Context<AppEnv>): SignerContext {
  // A header holds bytes, never NUL; the replacement only keeps the audit trail's text storable.
  const userAgent = c.req.header('user-agent')?.replace(/\u0000/g, '').slice(0, MAX_USER_AGENT_CHARS);
  return { ip: c.get('services').clientIp(c), userAgent: userAgent || null };
}

/** The page's addresses, relative: the link's own origin is the page's. The token was checked for shape. */
export const linksOf = (token: string) => ({
  sign: `/sign/${token}`,
  decline: `/sign/${token}/decline`,
  document: `/sign/${token}/document.pdf`,
  download: `/sign/${token}/document.pdf?download=1`,
});

export type Refusal = { problems: Problem[]; values?: Record<string, string>; consentGiven?: boolean; reason?: string };

/**
 * The page for a state: 200, an invalid link 404. With a refusal, the sign page shows the problems
 * beside the fields and what was sent, with 422; a link no longer to be signed shows its own page.
 */
export async function respondWithState(c: Context<AppEnv>, token: string, state: SigningState, refusal?: Refusal): Promise<Response> {
  const links = linksOf(token);
  if (state.kind === 'invalid') return c.html(statePage(state, links), 404);
  const form = () => formToken(c.get('services').config.tokenSecret, token);
  // A signer whose turn has not come may decline already (the domain allows it).
  if (state.kind === 'not_your_turn') {
    const decline = { action: links.decline, formToken: await form(), reason: refusal?.reason, problems: refusal?.problems };
    return c.html(statePage(state, links, decline), refusal ? 422 : 200);
  }
  if (state.kind !== 'sign') return c.html(statePage(state, links), 200);
  return c.html(signPage({ state, links, formToken: await form(), ...refusal }), refusal ? 422 : 200);
}
