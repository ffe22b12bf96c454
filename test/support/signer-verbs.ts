/**
 * The signing verbs as the signing page runs them, for tests that call the domain directly: the
 * signer is the actor, and what the verb committed is relayed once it is done. The page relays
 * after its answer; here the relay is awaited, so that a test sees the follow-ups queued.
 */
import type { SignerContext } from '../../src/domain/signing/signing-state.js';
import { type SignerVerbContext, verbContext } from '../../src/domain/verb-context.js';
import { relayOutbox } from '../../src/outbox/outbox.js';
import type { Services } from '../../src/services.js';

/** A signer's address and browser, as the audit trail records them. */
export const testSigner: SignerContext = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (test)' };

export async function bySigner<I, T>(services: Services, who: SignerContext, verb: (ctx: SignerVerbContext, input: I) => Promise<T>, input: I): Promise<T> {
  const ctx = verbContext(services, { kind: 'signer', signer: who } as const);
  try {
    return await verb(ctx, input);
  } finally {
    await relayOutbox(services, ctx.outbox);
  }
}
