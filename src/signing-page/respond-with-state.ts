/**
 * The page a signing handler answers with for a link's state: the page's addresses, the brand it
 * wears, and the sign, verification or state page, with a refusal's problems where there are any.
 */
import type { Context } from 'hono';
import type { SigningState } from '../domain/signing/signing-state.js';
import type { SigningEnv } from './signing-env.js';
import type { Language } from '../i18n/index.js';
import { messagesFor } from '../i18n/index.js';
import { type BrandLook, brandLookOfRecipient } from '../domain/companies/brand-look.js';
import { signingReadFailed } from '../domain/shared/unavailable.js';
import { formToken } from './form-token.js';
import { pageBrandOf } from './html/brand-header.js';
import { chosenLanguage, pageLanguage } from './language.js';
import { embedOriginOf, pageEmbedOf } from './embedding.js';
import { type Problem, signPage } from './html/sign-page.js';
import { statePage } from './html/state-pages.js';
import { verificationPage, type VerificationNotice } from './html/verification-page.js';
import { keepProof, proofInAddress } from './proof-in-browser.js';

/**
 * The page's addresses, relative: the link's own origin is the page's. The token was checked for
 * shape. A language the signer chose (`?lang=`) stays on the forms and the page they lead back to,
 * and so does the parent's origin of an embedded page (`?embed_origin=`, embedding.ts).
 */
export const linksOf = (token: string, chosen: Language | null = null, embedOrigin: string | null = null) => {
  const embed = embedOrigin ? `embed_origin=${encodeURIComponent(embedOrigin)}` : '';
  const query = [chosen ? `lang=${encodeURIComponent(chosen)}` : '', embed].filter(Boolean).join('&');
  const kept = query ? `?${query}` : '';
  return {
    sign: `/sign/${token}${kept}`,
    decline: `/sign/${token}/decline${kept}`,
    document: `/sign/${token}/document.pdf`,
    download: `/sign/${token}/document.pdf?download=1`,
    // With what earlier signers put on it, for the sign page's links (not its viewer, which draws those values itself).
    filledDocument: `/sign/${token}/document.pdf?filled=1`,
    filledDownload: `/sign/${token}/document.pdf?filled=1&download=1`,
    language: embed ? { path: `/sign/${token}`, keep: `&${embed}` } : { path: `/sign/${token}` },
  };
};

export type Refusal = { problems: Problem[]; values?: Record<string, string>; consentGiven?: boolean; reason?: string; verification?: VerificationNotice };

/** The page's language: see language.ts; `form` is the language of the page a form came from. */
const messagesOf = (c: Context<SigningEnv>, state: SigningState, form: Language | null) =>
  messagesFor(pageLanguage(c, { envelope: 'envelope' in state ? state.envelope.language : null, form }));

/**
 * The brand the page of a link wears, read as soon as the request comes: it needs only the
 * recipient's id, which the token names, so it need not wait for the link's own reads. Read for
 * a token whose MAC may yet fail, it is shown only for a genuine link; a failure is met where the
 * page awaits it, never left unobserved.
 */
export function pageLookOf(c: Context<SigningEnv>, token: string): Promise<BrandLook> {
  const look = brandLookOfRecipient(c.get('services'), token.split('.')[0]!).catch((err: unknown) => {
    throw signingReadFailed(err);
  });
  look.catch(() => {});
  return look;
}

/**
 * The page for a state: 200, an invalid link 404. With a refusal, the sign page shows the problems
 * beside the fields and what was sent, with 422; a link no longer to be signed shows its own page.
 * `look` is the brand started by `pageLookOf`, when the handler started it early.
 */
export async function respondWithState(
  c: Context<SigningEnv>,
  token: string,
  state: SigningState,
  refusal?: Refusal,
  formLanguage: Language | null = null,
  look?: Promise<BrandLook>,
): Promise<Response> {
  const m = messagesOf(c, state, formLanguage);
  if (state.kind === 'invalid') return c.html(statePage(m, state, linksOf(token, chosenLanguage(c))), 404);
  // A genuine link's page wears the brand of the company that sent it, and may tell its frame's parent what happens.
  const [brand, embed] = await Promise.all([look ?? pageLookOf(c, token), pageEmbedOf(c, token, state)]);
  const links = { ...keepProof(linksOf(token, chosenLanguage(c), embedOriginOf(c)), proofInAddress(c)), brand: pageBrandOf(brand), embed };
  const form = () => formToken(c.get('services').config.tokenSecret, token);
  // A role that asks for a code: the verification step, with what came of the last send or try.
  if (state.kind === 'verify') {
    const notice = refusal?.verification;
    return c.html(verificationPage(m, { state, token, links, formToken: await form(), notice }), notice?.status ?? 200);
  }
  // A signer whose turn has not come may decline already (the domain allows it).
  if (state.kind === 'not_your_turn') {
    const decline = { action: links.decline, formToken: await form(), reason: refusal?.reason, problems: refusal?.problems };
    return c.html(statePage(m, state, links, decline), refusal ? 422 : 200);
  }
  if (state.kind !== 'sign') return c.html(statePage(m, state, links), 200);
  return c.html(signPage(m, { state, links, formToken: await form(), ...refusal }), refusal ? 422 : 200);
}
