/**
 * The signing page inside an integrator's page (embedded signing): which origins may frame a
 * link's pages, and which one the page tells what happens, with `postMessage`.
 *
 * The parent names its own origin with `?embed_origin=` on the link (public/static/embed.js does);
 * the page kept across its own forms and redirects like `?lang=`. Messages go to that origin only
 * when the company allows it, and `postMessage` is given it as the target, so a parent of any other
 * origin gets nothing. They name the envelope and recipient, never the link.
 */
import type { Context } from 'hono';
import { allowedOriginsOfRecipient, MAX_ORIGIN_CHARS } from '../domain/companies/embedding.js';
import type { SigningState } from '../domain/signing/signing-state.js';
import type { PageEmbed } from './html/embed-meta.js';
import type { SigningEnv } from './signing-env.js';

export type { PageEmbed };

/**
 * The origins allowed to frame the pages of the link `token` (by the recipient it names: the caller
 * decides whether the link is genuine). The guard and the page both ask; the company's list is read
 * once per request. A failed read allows no frame; the handler meets the failure.
 */
export function frameOriginsOf(c: Context<SigningEnv>, token: string): Promise<string[]> {
  let origins = c.get('frameOrigins');
  if (!origins) {
    origins = allowedOriginsOfRecipient(c.get('services'), token.split('.')[0] ?? '').catch(() => []);
    c.set('frameOrigins', origins);
  }
  return origins;
}

/** `?embed_origin=` as given, when it could be an origin at all; whether it is allowed is asked later. */
export function embedOriginOf(c: Context<SigningEnv>): string | null {
  const origin = c.req.query('embed_origin');
  if (typeof origin !== 'string' || origin.length > MAX_ORIGIN_CHARS || !URL.canParse(origin)) return null;
  return new URL(origin).origin === origin ? origin : null;
}

/** What the parent is told on a page of this state, in the order it happened. */
function eventsOf(state: SigningState): string[] {
  switch (state.kind) {
    case 'sign':
      return ['ready', 'viewed'];
    case 'signed':
      return ['ready', 'signed'];
    // Once everyone has signed, a signer's link shows the envelope completed (a copy recipient's too).
    case 'completed':
      return state.signedByThisRecipient ? ['ready', 'signed', 'completed'] : ['ready', 'completed'];
    case 'declined':
      return state.byThisRecipient ? ['ready', 'declined'] : ['ready'];
    default:
      return ['ready'];
  }
}

/** The page's messages to its parent, or none: no `?embed_origin=`, or one the company does not allow. */
export async function pageEmbedOf(c: Context<SigningEnv>, token: string, state: SigningState): Promise<PageEmbed | undefined> {
  const origin = embedOriginOf(c);
  if (!origin || state.kind === 'invalid') return undefined;
  if (!(await frameOriginsOf(c, token)).includes(origin)) return undefined;
  return { origin, envelopeId: state.envelope.id, recipientId: token.split('.')[0]!, events: eventsOf(state) };
}
