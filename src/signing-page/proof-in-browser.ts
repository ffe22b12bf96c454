/**
 * How a browser shows that its signer entered their code: the proof (verification-proof.ts) in a
 * cookie scoped to the link's own path (HttpOnly, SameSite=Lax, Secure on https), and also in the
 * page's own addresses (`?vp=`), as the form token is in its forms. The cookie remembers it when
 * the link is opened again in this browser; the address carries it where a browser withholds the
 * cookie, in a page framed by another site, and only there: an address is copied, forwarded and
 * kept in the history, and the proof in it would verify whoever opens it. A second browser has
 * neither, and must verify again.
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { isProofShaped, PROOF_LIFETIME_MS } from '../domain/signing/verification-proof.js';
import type { SigningEnv } from './signing-env.js';
import type { SignPageModel } from './html/sign-page.js';

export const PROOF_QUERY = 'vp';
const PROOF_COOKIE = 'esign_verified';

/** The proof in the page's address, if one is there: links made for the page keep it. */
export function proofInAddress(c: Context<SigningEnv>): string | null {
  const proof = c.req.query(PROOF_QUERY);
  return isProofShaped(proof) ? proof : null;
}

/** The proof this request brings: in its address, else in the link's cookie. */
export function proofOf(c: Context<SigningEnv>): string | null {
  const cookie = getCookie(c, PROOF_COOKIE);
  return proofInAddress(c) ?? (isProofShaped(cookie) ? cookie : null);
}

export function rememberProof(c: Context<SigningEnv>, token: string, proof: string): void {
  setCookie(c, PROOF_COOKIE, proof, {
    path: `/sign/${token}`,
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.get('services').config.baseUrl.startsWith('https:'),
    maxAge: PROOF_LIFETIME_MS / 1000,
  });
}

/** `path` with the proof added to its query, when there is one. */
/**
 * Whether the page is in a frame, where the browser may withhold the cookie: embed.js names its
 * parent on the link, and a browser says so of a frame's navigation.
 */
export const inFrame = (c: Context<SigningEnv>) => c.req.query('embed_origin') !== undefined || c.req.header('sec-fetch-dest') === 'iframe';

export const withProof = (path: string, proof: string | null) =>
  proof ? `${path}${path.includes('?') ? '&' : '?'}${PROOF_QUERY}=${encodeURIComponent(proof)}` : path;

/** The sign page's own links (the brand and the frame's settings are not links to keep a proof on). */
type PageLinks = Omit<SignPageModel['links'], 'language' | 'brand' | 'embed'> & { language: { path: string; keep?: string } };

/** The page's links with the proof of its address kept on each, so a framed page stays verified. */
export function keepProof<T extends PageLinks>(links: T, proof: string | null): T {
  if (!proof) return links;
  const kept = `&${PROOF_QUERY}=${encodeURIComponent(proof)}`;
  return {
    ...links,
    sign: withProof(links.sign, proof),
    decline: withProof(links.decline, proof),
    document: withProof(links.document, proof),
    download: withProof(links.download, proof),
    filledDocument: withProof(links.filledDocument, proof),
    filledDownload: withProof(links.filledDownload, proof),
    language: { ...links.language, keep: `${links.language.keep ?? ''}${kept}` },
  };
}
