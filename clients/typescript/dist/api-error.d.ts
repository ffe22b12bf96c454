/** An answer of the API that is not a success, as the service describes it: `{ error: { code, message, details } }`. */
export declare class ESignApiError extends Error {
    /** The HTTP status. */
    readonly status: number;
    /** The documented error code (`template_not_found`, `validation_failed`…): branch on this, never on the message. */
    readonly code: string;
    readonly details: Record<string, unknown>;
    /** The `Retry-After` header, in seconds, when the service sent one. */
    readonly retryAfterSeconds?: number | undefined;
    readonly name = "ESignApiError";
    constructor(
    /** The HTTP status. */
    status: number, 
    /** The documented error code (`template_not_found`, `validation_failed`…): branch on this, never on the message. */
    code: string, message: string, details: Record<string, unknown>, 
    /** The `Retry-After` header, in seconds, when the service sent one. */
    retryAfterSeconds?: number | undefined);
}
/**
 * The typed error of an answer. Only what the service wrote goes into it (it never echoes keys
 * or tokens); an answer that is not the service's JSON error gets a code of its own.
 */
export declare function apiErrorOf(response: Response, body: unknown): ESignApiError;
