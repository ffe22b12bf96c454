/**
 * The bearer token an API key is exchanged for (`POST /v1/auth/token`), kept until shortly before
 * it expires. Concurrent callers share one exchange.
 */
export declare class AccessTokenCache {
    private readonly baseUrl;
    private readonly apiKey;
    private readonly fetchImpl;
    private readonly now;
    private current?;
    private pending?;
    /** How many exchanges were made: the client's way to show that it caches. */
    exchanges: number;
    constructor(baseUrl: string, apiKey: string, fetchImpl: typeof fetch, now?: () => number);
    token(): Promise<string>;
    /** Forgets the token (the service refused it); the next call exchanges the key again. */
    forget(refused: string): void;
    private exchange;
}
