/**
 * What a request to a link says of itself: the link's token, and who is acting (their address,
 * browser and, once they entered a code, the proof of it) for the audit trail and the checks.
 */
import type { Context } from 'hono';
import type { SignerContext } from '../domain/signing/signing-state.js';
import type { SignerVerbContext } from '../domain/verb-context.js';
import type { SigningEnv } from './signing-env.js';
import { clientIpOf } from '../http/client-ip.js';
import { proofOf } from './proof-in-browser.js';

/** How much of the user agent goes to the audit trail. */
const MAX_USER_AGENT_CHARS = 500;

export const tokenOf = (c: Context<SigningEnv>) => c.req.param('token') ?? '';

export function signerOf(c: Context<SigningEnv>): SignerContext {
  // A header holds bytes, never NUL; the replacement only keeps the audit trail's text storable.
  const userAgent = c.req
    .header('user-agent')
    ?.replace(/\u0000/g, '')
    .slice(0, MAX_USER_AGENT_CHARS);
  const proof = proofOf(c);
  return { ip: clientIpOf(c), userAgent: userAgent || null, ...(proof ? { proof } : {}) };
}

/**
 * The context a page's handler gives the signing verbs: the signer acts, and what the verbs commit
 * goes to the request's outbox, relayed to the queue once the page has answered.
 */
export function signerContext(c: Context<SigningEnv>): SignerVerbContext {
  const services = c.get('services');
  return { services, actor: { kind: 'signer', signer: signerOf(c) }, now: services.clock.now(), outbox: c.get('outbox') };
}
