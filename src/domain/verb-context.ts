/**
 * What every verb of the domain is given: `verb(ctx, input)`. The context says who acts and when,
 * and gathers the side effects the verb committed (its outbox rows); the edge that called the verb
 * (an endpoint, a signing page, the queue's dispatcher) hands them to the queue once its answer is
 * out, so no verb waits on the queue and every verb relays the same way.
 */
import type { OutboxMessage } from '../outbox/outbox.js';
import type { Services } from '../services.js';
import type { Principal } from './auth/principal.js';
import type { SignerContext } from './signing/signing-state.js';

/**
 * Who acts: a company's API key, the operator (the admin token), a signer (their link), the service
 * itself (a queued job), a person at the company application not yet signed in (`visitor`), or a
 * user signed in to it (`user`, with the session's id).
 */
export type Actor =
  | { kind: 'api_key'; principal: Principal }
  | { kind: 'operator' }
  | { kind: 'signer'; signer: SignerContext }
  | { kind: 'system' }
  | { kind: 'visitor' }
  | { kind: 'user'; userId: string; sessionId: string };

export type VerbContext<A extends Actor = Actor> = {
  services: Services;
  actor: A;
  /** The verb's one notion of now, read once by whoever made the context. */
  now: Date;
  /** Side effects committed by the verb, in order; the edge relays them after its answer. */
  outbox: OutboxMessage[];
};

/** A verb that acts within one company, known before it starts (from the API key, or the operator's path). */
export type CompanyContext<A extends Actor = Actor> = VerbContext<A> & { companyId: string };

/** The context of a signer's verb: the signer is the actor. */
export type SignerVerbContext = VerbContext<{ kind: 'signer'; signer: SignerContext }>;

export function verbContext<A extends Actor>(services: Services, actor: A): VerbContext<A> {
  return { services, actor, now: services.clock.now(), outbox: [] };
}

export function companyContext<A extends Actor>(services: Services, actor: A, companyId: string): CompanyContext<A> {
  return { ...verbContext(services, actor), companyId };
}

/** Records side effects that were committed, for the edge to relay. */
export function committed(ctx: VerbContext, messages: readonly OutboxMessage[]): void {
  ctx.outbox.push(...messages);
}
