import type { ProviderFailure } from '../../ports/unconfirmed-send.js';

export type ProviderOptions = {
  /** How long one request may take before it counts as failed. */
  timeoutMs?: number;
  /** The HTTP client; tests hand in a stand-in's. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
};

/**
 * A provider's failed send, told by what the provider answered and never by what was sent (an
 * e-mail's signing link, a text message's code, the credentials): its status when it answered,
 * none when it did not.
 */
export class ProviderError extends Error implements ProviderFailure {
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered at all. */
    readonly status?: number,
  ) {
    super(message);
  }

  /** No answer (a timeout, a connection lost): the provider may have taken the message. */
  get unconfirmed(): boolean {
    return this.status === undefined;
  }
}

/**
 * One request to a provider, bounded by the options' timeout (10 s unless given). Answers what
 * the provider answered, a refusal included; throws `fail(message)` when no answer came. The
 * client's own error is not passed on, not even as the cause: it may describe the request.
 */
export async function requestProvider(
  provider: string,
  url: string,
  init: RequestInit,
  options: ProviderOptions,
  fail: (message: string) => ProviderError,
): Promise<Response> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Called unbound: workerd refuses a fetch whose `this` is some other object.
  const client = options.fetch ?? fetch;
  try {
    return await client(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const name = err instanceof Error ? err.name : 'Error';
    throw fail(
      name === 'TimeoutError' || name === 'AbortError' ? `${provider} did not answer within ${timeoutMs} ms.` : `${provider} could not be reached (${name}).`,
    );
  }
}
