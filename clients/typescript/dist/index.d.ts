/**
 * The E-Signing API from TypeScript: openapi-fetch over the types generated from the service's
 * OpenAPI document (./schema.ts), with what every caller needs on top: the API key exchanged
 * for a cached token, typed errors, safe retries of a send, and webhook verification.
 */
import { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';
export { ESignApiError } from './api-error.js';
export { verifyWebhook, type WebhookEvent } from './verify-webhook.js';
export type { components, operations, paths } from './schema.js';
type Schemas = components['schemas'];
type Query<Op extends keyof operations> = operations[Op]['parameters']['query'];
export type Envelope = Schemas['Envelope'];
export type SendRequest = Schemas['SendRequest'];
export type RetryOptions = {
    /** Attempts in all, the first included. Default 4. */
    attempts?: number;
    /** The first wait when the service names none; doubled at each attempt. Default 500 ms. */
    baseDelayMs?: number;
    /** The longest wait; a `Retry-After` asking for more ends the retries with the error. Default 30 s. */
    maxDelayMs?: number;
};
export type ESignClientOptions = {
    /** Where the service answers, e.g. `http://127.0.0.1:8787` for the embedded server. */
    baseUrl: string;
    /** An API key (`esk_…`); it is only ever sent to `POST /v1/auth/token`. */
    apiKey: string;
    /** Another fetch (a proxy, a test's); default the global one. */
    fetch?: (request: Request) => Promise<Response>;
    retry?: RetryOptions;
};
/**
 * A client of the API. Its state is held in ES private fields, the API key and the cached token
 * among them: printing, inspecting, serialising or cloning a client shows neither (an integrator's
 * log of a request context that holds one must not become a credential).
 */
export declare class ESignClient {
    #private;
    constructor(options: ESignClientOptions);
    /**
     * Every operation of the API, typed from its OpenAPI document: `client.raw.GET('/v1/templates',
     * { params: { query: { per_page: 10 } } })` answers `{ data, error, response }`, authorized.
     */
    get raw(): Client<paths>;
    /** How many times the API key was exchanged for a token so far. */
    get tokenExchanges(): number;
    listTemplates(query?: Query<'listTemplates'>): Promise<{
        data: {
            id: string;
            name: string;
            email_subject: string | null;
            email_message: string | null;
            expiry_days: number | null;
            reminders: {
                first_after_days: number;
                every_days: number;
            } | null;
            signing_order: "sequential" | "parallel";
            share_signing_links: boolean;
            language: "en" | "de" | "fr" | "es" | "it" | "pt" | "nl" | "pl" | "ja" | "zh-Hans" | "ar" | "he" | null;
            roles: {
                name: string;
                type: "signer" | "cc";
                order: number;
                locked: boolean;
                recipient: {
                    name: string;
                    email: string;
                } | null;
                verification: "none" | "email_code" | "sms_code";
                contact_number_required: boolean;
            }[];
            created_at: string;
            updated_at: string;
        }[];
        pagination: {
            page: number;
            per_page: number;
            total: number;
            total_pages: number;
        };
    }>;
    getTemplate(id: string): Promise<{
        id: string;
        name: string;
        email_subject: string | null;
        email_message: string | null;
        expiry_days: number | null;
        reminders: {
            first_after_days: number;
            every_days: number;
        } | null;
        signing_order: "sequential" | "parallel";
        share_signing_links: boolean;
        language: "en" | "de" | "fr" | "es" | "it" | "pt" | "nl" | "pl" | "ja" | "zh-Hans" | "ar" | "he" | null;
        roles: {
            name: string;
            type: "signer" | "cc";
            order: number;
            locked: boolean;
            recipient: {
                name: string;
                email: string;
            } | null;
            verification: "none" | "email_code" | "sms_code";
            contact_number_required: boolean;
        }[];
        created_at: string;
        updated_at: string;
        document: {
            file_name: string;
            sha256: string;
            page_count: number;
            pages: {
                width: number;
                height: number;
            }[];
        } | null;
        fields: {
            role: string;
            type: string;
            label: string | null;
            page: number;
            x: number;
            y: number;
            width: number;
            height: number;
            required: boolean;
            settings: {
                min?: number | undefined;
                max?: number | undefined;
            } | {
                options: (string | {
                    value: string;
                    x: number;
                    y: number;
                    width: number;
                    height: number;
                })[];
            } | null;
        }[];
    }>;
    listContacts(query?: Query<'listContacts'>): Promise<{
        data: {
            id: string;
            name: string;
            email: string;
            contact_number: string | null;
            created_at: string;
        }[];
        pagination: {
            page: number;
            per_page: number;
            total: number;
            total_pages: number;
        };
    }>;
    createContact(body: Schemas['NewContact']): Promise<{
        id: string;
        name: string;
        email: string;
        contact_number: string | null;
        created_at: string;
    }>;
    getSigningLinks(envelopeId: string): Promise<{
        signing_urls: {
            recipient_id: string;
            name: string;
            email: string;
            recipient_type: "need-to-sign" | "receives-copy";
            signing_url: string | null;
        }[];
    }>;
    listWebhookEventKinds(): Promise<{
        data: {
            type: string;
            description: string;
        }[];
    }>;
    listWebhooks(query?: Query<'listWebhooks'>): Promise<{
        data: {
            id: string;
            url: string;
            events: string[];
            description: string | null;
            status: "active" | "disabled";
            disabled_reason: string | null;
            created_at: string;
        }[];
        pagination: {
            page: number;
            per_page: number;
            total: number;
            total_pages: number;
        };
    }>;
    /** The answer carries the subscription's signing secret, shown this once. */
    createWebhook(body: Schemas['NewWebhookSubscription']): Promise<{
        id: string;
        url: string;
        events: string[];
        description: string | null;
        status: "active" | "disabled";
        disabled_reason: string | null;
        created_at: string;
        secret: string;
    }>;
    deleteWebhook(id: string): Promise<void>;
    listWebhookDeliveries(id: string, query?: Query<'listWebhookDeliveries'>): Promise<{
        data: {
            delivery_id: string;
            origin: "event" | "replay" | "redelivery";
            event_id: string;
            event_type: string;
            attempt: number;
            status_code: number | null;
            delivered: boolean;
            duration_ms: number | null;
            error_type: "timeout" | "network" | "refused_target" | "redirect" | "http_status" | "interrupted" | null;
            error: string | null;
            created_at: string;
        }[];
        pagination: {
            page: number;
            per_page: number;
            total: number;
            total_pages: number;
        };
    }>;
    testWebhook(id: string): Promise<{
        delivery_id: string;
        origin: "event" | "replay" | "redelivery";
        event_id: string;
        event_type: string;
        attempt: number;
        status_code: number | null;
        delivered: boolean;
        duration_ms: number | null;
        error_type: "timeout" | "network" | "refused_target" | "redirect" | "http_status" | "interrupted" | null;
        error: string | null;
        created_at: string;
    }>;
    replayWebhookEvents(id: string, body: Schemas['WebhookReplayRequest']): Promise<{
        replayed: number;
    }>;
    redeliverWebhookDelivery(id: string, deliveryId: string): Promise<{
        delivery_id: string;
        event_id: string;
    }>;
    rotateWebhookSecret(id: string): Promise<{
        secret: string;
        previous_secret_expires_at: string;
    }>;
    /**
     * The finished, sealed PDF, by the `download_url` of an `envelope.document_ready` event (the
     * link is its own credential, valid 24 hours; an expired one is `410 download_link_expired`).
     */
    downloadDocument(downloadUrl: string): Promise<Uint8Array>;
    /**
     * Sends an envelope from a template. A send whose answer was lost (a network error, a 503, a
     * 429, or the same send still in progress) is tried again with the same `Idempotency-Key`, so
     * the service makes one envelope and takes one send of quota whatever happens; any other error
     * is thrown at once. Without a key of the caller's, one is made for this call.
     */
    sendEnvelope(body: SendRequest, options?: {
        idempotencyKey?: string;
    }): Promise<Envelope>;
}
