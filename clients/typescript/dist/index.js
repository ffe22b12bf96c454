/**
 * The E-Signing API from TypeScript: openapi-fetch over the types generated from the service's
 * OpenAPI document (./schema.ts), with what every caller needs on top: the API key exchanged
 * for a cached token, typed errors, safe retries of a send, and webhook verification.
 */
import createClient from 'openapi-fetch';
import { AccessTokenCache } from './access-token.js';
import { ESignApiError, apiErrorOf } from './api-error.js';
export { ESignApiError } from './api-error.js';
export { verifyWebhook } from './verify-webhook.js';
/**
 * A client of the API. Its state is held in ES private fields, the API key and the cached token
 * among them: printing, inspecting, serialising or cloning a client shows neither (an integrator's
 * log of a request context that holds one must not become a credential).
 */
export class ESignClient {
    #raw;
    #tokens;
    #fetchImpl;
    #retry;
    constructor(options) {
        const baseUrl = options.baseUrl.replace(/\/+$/, '');
        this.#fetchImpl = options.fetch ?? ((request) => globalThis.fetch(request));
        this.#tokens = new AccessTokenCache(baseUrl, options.apiKey, (input, init) => this.#fetchImpl(new Request(input, init)));
        this.#retry = { attempts: 4, baseDelayMs: 500, maxDelayMs: 30_000, ...options.retry };
        this.#raw = createClient({ baseUrl, fetch: (request) => this.#authorized(request) });
    }
    /**
     * Every operation of the API, typed from its OpenAPI document: `client.raw.GET('/v1/templates',
     * { params: { query: { per_page: 10 } } })` answers `{ data, error, response }`, authorized.
     */
    get raw() {
        return this.#raw;
    }
    /** How many times the API key was exchanged for a token so far. */
    get tokenExchanges() {
        return this.#tokens.exchanges;
    }
    /**
     * Sends with the cached token; on a 401 (the token expired or was revoked early) exchanges the
     * key again and sends once more.
     */
    async #authorized(request) {
        const spare = request.clone();
        const token = await this.#tokens.token();
        request.headers.set('authorization', `Bearer ${token}`);
        const answer = await this.#fetchImpl(request);
        if (answer.status !== 401)
            return answer;
        this.#tokens.forget(token);
        spare.headers.set('authorization', `Bearer ${await this.#tokens.token()}`);
        return this.#fetchImpl(spare);
    }
    listTemplates(query) {
        return unwrap(this.raw.GET('/v1/templates', { params: { query } }));
    }
    getTemplate(id) {
        return unwrap(this.raw.GET('/v1/templates/{id}', { params: { path: { id } } }));
    }
    listContacts(query) {
        return unwrap(this.raw.GET('/v1/contacts', { params: { query } }));
    }
    createContact(body) {
        return unwrap(this.raw.POST('/v1/contacts', { body }));
    }
    getSigningLinks(envelopeId) {
        return unwrap(this.raw.GET('/v1/envelopes/{id}/signing-links', { params: { path: { id: envelopeId } } }));
    }
    listWebhookEventKinds() {
        return unwrap(this.raw.GET('/v1/webhooks/events'));
    }
    listWebhooks(query) {
        return unwrap(this.raw.GET('/v1/webhooks', { params: { query } }));
    }
    /** The answer carries the subscription's signing secret, shown this once. */
    createWebhook(body) {
        return unwrap(this.raw.POST('/v1/webhooks', { body }));
    }
    async deleteWebhook(id) {
        const { error, response } = await this.raw.DELETE('/v1/webhooks/{id}', { params: { path: { id } } });
        if (!response.ok)
            throw apiErrorOf(response, error);
    }
    listWebhookDeliveries(id, query) {
        return unwrap(this.raw.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } }));
    }
    testWebhook(id) {
        return unwrap(this.raw.POST('/v1/webhooks/{id}/test', { params: { path: { id } } }));
    }
    replayWebhookEvents(id, body) {
        return unwrap(this.raw.POST('/v1/webhooks/{id}/replay', { params: { path: { id } }, body }));
    }
    redeliverWebhookDelivery(id, deliveryId) {
        return unwrap(this.raw.POST('/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id, delivery_id: deliveryId } } }));
    }
    rotateWebhookSecret(id) {
        return unwrap(this.raw.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } }));
    }
    /**
     * The finished, sealed PDF, by the `download_url` of an `envelope.document_ready` event (the
     * link is its own credential, valid 24 hours; an expired one is `410 download_link_expired`).
     */
    async downloadDocument(downloadUrl) {
        const link = new URL(downloadUrl);
        const envelopeId = decodeURIComponent(/\/v1\/documents\/([^/]+)$/.exec(link.pathname)?.[1] ?? '');
        if (!envelopeId)
            throw new TypeError('Not a document download link.');
        const query = { expires: link.searchParams.get('expires') ?? undefined, sig: link.searchParams.get('sig') ?? undefined };
        const { data, error, response } = await this.raw.GET('/v1/documents/{envelope_id}', {
            params: { path: { envelope_id: envelopeId }, query },
            parseAs: 'arrayBuffer',
        });
        if (!response.ok || data === undefined)
            throw apiErrorOf(response, error);
        return new Uint8Array(data);
    }
    /**
     * Sends an envelope from a template. A send whose answer was lost (a network error, a 503, a
     * 429, or the same send still in progress) is tried again with the same `Idempotency-Key`, so
     * the service makes one envelope and takes one send of quota whatever happens; any other error
     * is thrown at once. Without a key of the caller's, one is made for this call.
     */
    async sendEnvelope(body, options = {}) {
        const key = options.idempotencyKey ?? crypto.randomUUID();
        for (let attempt = 1;; attempt++) {
            let failure;
            try {
                const { data, error, response } = await this.raw.POST('/v1/envelopes/from-template', { body, params: { header: { 'idempotency-key': key } } });
                if (response.ok && data)
                    return data;
                failure = apiErrorOf(response, error);
            }
            catch (err) {
                failure = err;
            }
            const wait = this.#retryDelay(failure, attempt);
            if (wait === undefined)
                throw failure;
            await new Promise((resolve) => setTimeout(resolve, wait));
        }
    }
    /** How long to wait before the next attempt, or undefined when the failure is final. */
    #retryDelay(failure, attempt) {
        if (attempt >= this.#retry.attempts)
            return undefined;
        const backoff = Math.min(this.#retry.baseDelayMs * 2 ** (attempt - 1), this.#retry.maxDelayMs);
        if (!(failure instanceof ESignApiError))
            return failure instanceof TypeError ? backoff : undefined; // fetch's network errors are TypeErrors
        const retryable = failure.status === 503 || failure.status === 429 || (failure.status === 409 && failure.code === 'idempotency_request_in_progress');
        if (!retryable)
            return undefined;
        if (failure.retryAfterSeconds === undefined)
            return backoff;
        const asked = failure.retryAfterSeconds * 1000;
        return asked <= this.#retry.maxDelayMs ? asked : undefined;
    }
}
/** The data of a success, or the answer's typed error. */
async function unwrap(call) {
    const { data, error, response } = await call;
    if (!response.ok || data === undefined)
        throw apiErrorOf(response, error);
    return data;
}
