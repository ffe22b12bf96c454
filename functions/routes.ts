/**
 * The routing table: every endpoint of the service, one module each, mounted in this order. Each
 * module exports its OpenAPI `route` (which validates and documents) and its `handler`; the table
 * says where it answers, and loads the module on the endpoint's first request, so that an isolate
 * evaluates only the endpoints it is asked for (test/api/openapi.test.ts checks the table against
 * the modules' own routes).
 */
export type Endpoint = { route: { method: string; path: string }; handler: unknown };
export type EndpointEntry = { method: string; path: string; load: () => Promise<Endpoint> };

const at = (method: string, path: string, load: () => Promise<Endpoint>): EndpointEntry => ({ method, path, load });

/** The public API under `/v1` (docs/api-reference.md, section 4). */
export const v1Endpoints: EndpointEntry[] = [
  at('post', '/v1/auth/token', () => import('./auth/create-token.js')),
  at('get', '/v1/templates', () => import('./templates/list-templates.js')),
  at('get', '/v1/templates/{id}', () => import('./templates/get-template.js')),
  at('get', '/v1/contacts', () => import('./contacts/list-contacts.js')),
  at('post', '/v1/contacts', () => import('./contacts/create-contact.js')),
  at('post', '/v1/envelopes/from-template', () => import('./envelopes/send-envelope.js')),
  at('get', '/v1/envelopes/{id}/signing-links', () => import('./envelopes/get-signing-links.js')),
  // The catalog first: its path would otherwise read as a subscription id.
  at('get', '/v1/webhooks/events', () => import('./webhooks/list-event-kinds.js')),
  at('get', '/v1/webhooks', () => import('./webhooks/list-webhooks.js')),
  at('post', '/v1/webhooks', () => import('./webhooks/create-webhook.js')),
  at('delete', '/v1/webhooks/{id}', () => import('./webhooks/delete-webhook.js')),
  at('get', '/v1/webhooks/{id}/deliveries', () => import('./webhooks/list-deliveries.js')),
  at('post', '/v1/webhooks/{id}/test', () => import('./webhooks/test-webhook.js')),
  at('post', '/v1/webhooks/{id}/replay', () => import('./webhooks/replay-webhook.js')),
  at('post', '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', () => import('./webhooks/redeliver-delivery.js')),
  at('post', '/v1/webhooks/{id}/rotate-secret', () => import('./webhooks/rotate-webhook-secret.js')),
  // The download link of envelope.document_ready: the link itself is the credential.
  at('get', '/v1/documents/{envelope_id}', () => import('./webhooks/download-document.js')),
];

/** The management plane under `/admin/v1` (README, "The admin API"). */
export const adminEndpoints: EndpointEntry[] = [
  at('get', '/admin/v1/companies', () => import('./admin/list-companies.js')),
  at('post', '/admin/v1/companies', () => import('./admin/create-company.js')),
  at('get', '/admin/v1/companies/{companyId}/users', () => import('./admin/list-users.js')),
  at('put', '/admin/v1/companies/{companyId}/users/{email}', () => import('./admin/put-user.js')),
  at('get', '/admin/v1/companies/{companyId}/brand', () => import('./admin/get-brand.js')),
  at('put', '/admin/v1/companies/{companyId}/brand', () => import('./admin/put-brand.js')),
  at('get', '/admin/v1/companies/{companyId}/embedding', () => import('./admin/get-embedding.js')),
  at('put', '/admin/v1/companies/{companyId}/embedding', () => import('./admin/put-embedding.js')),
  at('get', '/admin/v1/companies/{companyId}/api-keys', () => import('./admin/list-api-keys.js')),
  at('post', '/admin/v1/companies/{companyId}/api-keys', () => import('./admin/create-api-key.js')),
  at('post', '/admin/v1/api-keys/{id}/rotate', () => import('./admin/rotate-api-key.js')),
  at('post', '/admin/v1/api-keys/{id}/revoke', () => import('./admin/revoke-api-key.js')),
  at('post', '/admin/v1/companies/{companyId}/templates', () => import('./admin/import-template.js')),
  at('get', '/admin/v1/companies/{companyId}/envelopes', () => import('./admin/list-envelopes.js')),
  at('post', '/admin/v1/envelopes/{id}/void', () => import('./admin/void-envelope.js')),
  at('get', '/admin/v1/envelopes/{id}/document', () => import('./admin/get-envelope-document.js')),
  at('get', '/admin/v1/envelopes/{id}/audit', () => import('./admin/get-envelope-audit.js')),
  at('get', '/admin/v1/dead-jobs', () => import('./admin/list-dead-jobs.js')),
  at('post', '/admin/v1/dead-jobs/{id}/retry', () => import('./admin/retry-dead-job.js')),
];

/** Every endpoint of a table, loaded: for the OpenAPI documents and the tests that read every route. */
export const loadEndpoints = (entries: EndpointEntry[]) => Promise.all(entries.map((entry) => entry.load()));
