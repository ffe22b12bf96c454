/**
 * The bearer token an API key is exchanged for (`POST /v1/auth/token`), kept until shortly before
 * it expires. Concurrent callers share one exchange.
 *
 * The key and the token are ES private fields: no enumeration, `util.inspect`, `console.log`,
 * `JSON.stringify` or `structuredClone` of this object (or of a client holding it) reaches them, so
 * a client that ends up in a log does not take its credentials there.
 */
export declare class AccessTokenCache {
    #private;
    /** How many exchanges were made: the client's way to show that it caches. */
    exchanges: number;
    constructor(baseUrl: string, apiKey: string, fetchImpl: typeof fetch, now?: () => number);
    token(): Promise<string>;
    /** Forgets the token (the service refused it); the next call exchanges the key again. */
    forget(refused: string): void;
}
