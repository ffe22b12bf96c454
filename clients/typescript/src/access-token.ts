import { apiErrorOf } from './api-error.js';

/** Taken off a token's life, so that a request never leaves with a token about to expire on the way. */
const EARLY_RENEWAL_MS = 30_000;

/**
 * The bearer token an API key is exchanged for (`POST /v1/auth/token`), kept until shortly before
 * it expires. Concurrent callers share one exchange.
 *
 * The key and the token are ES private fields: no enumeration, `util.inspect`, `console.log`,
 * `JSON.stringify` or `structuredClone` of this object (or of a client holding it) reaches them, so
 * a client that ends up in a log does not take its credentials there.
 */
export class AccessTokenCache {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #fetchImpl: typeof fetch;
  readonly #now: () => number;
  #current?: { token: string; renewAt: number };
  #pending?: Promise<string>;
  /** How many exchanges were made: the client's way to show that it caches. */
  exchanges = 0;

  constructor(baseUrl: string, apiKey: string, fetchImpl: typeof fetch, now: () => number = Date.now) {
    this.#baseUrl = baseUrl;
    this.#apiKey = apiKey;
    this.#fetchImpl = fetchImpl;
    this.#now = now;
  }

  async token(): Promise<string> {
    if (this.#current && this.#now() < this.#current.renewAt) return this.#current.token;
    this.#pending ??= this.#exchange().finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  /** Forgets the token (the service refused it); the next call exchanges the key again. */
  forget(refused: string) {
    if (this.#current?.token === refused) this.#current = undefined;
  }

  async #exchange(): Promise<string> {
    this.exchanges++;
    const response = await this.#fetchImpl(`${this.#baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_key: this.#apiKey }),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw apiErrorOf(response, body);
    const { access_token, expires_in } = body as { access_token: string; expires_in: number };
    const lifeMs = expires_in * 1000;
    // A short-lived token is renewed at half its life rather than never being reused.
    this.#current = { token: access_token, renewAt: this.#now() + Math.max(lifeMs - EARLY_RENEWAL_MS, lifeMs / 2) };
    return access_token;
  }
}
