/**
 * The routing table: every route of the service, each stated once, mounted in this order by
 * src/app.ts. An endpoint is a method and a path and the module that answers there (its `route`,
 * which validates and documents, and its `handler`); the OpenAPI documents, the signing pages, the
 * brand's files and the API reference are routes too. Each module is loaded on the first request
 * that needs it, so that an isolate evaluates only what it is asked for (the Worker's cold start):
 * hence the table, not the module, says where an endpoint answers.
 */
import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { EmbeddedServices } from '../src/adapters/embedded/embedded-services.js';
import type { AppEnv } from '../src/http/app-env.js';
import type { EndpointRoute } from '../src/http/endpoint-route.js';
import type { Services } from '../src/services.js';

/** An endpoint, its route placed where the table mounts it. */
export type Endpoint = { route: RouteConfig; handler: RouteHandler<RouteConfig, AppEnv> };
export type EndpointEntry = { kind: 'endpoint'; method: RouteConfig['method']; path: string; load: () => Promise<Endpoint> };
/** A document built on its first request and then served as it is (the OpenAPI documents). */
export type DocumentEntry = { kind: 'document'; path: string; build: (services: Services) => Promise<object> };
/** Pages under a pattern: one app of their own that registers each of its routes, relative to it (the signing pages). */
export type PagesEntry = { kind: 'pages'; pattern: string; load: () => Promise<Hono<AppEnv>> };
export type RouteEntry = EndpointEntry | DocumentEntry | PagesEntry;

const at = (method: RouteConfig['method'], path: string, load: () => Promise<{ route: EndpointRoute; handler: Endpoint['handler'] }>): EndpointEntry => ({
  kind: 'endpoint',
  method,
  path,
  load: async () => {
    const { route, handler } = await load();
    return { route: { ...route, method, path }, handler };
  },
});
const document = (path: string, build: DocumentEntry['build']): DocumentEntry => ({ kind: 'document', path, build });
const pages = (pattern: string, load: PagesEntry['load']): PagesEntry => ({ kind: 'pages', pattern, load });

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
  at('get', '/v1/documents/{envelope_id}', () => import('./documents/download-document.js')),
];

/** The management plane under `/admin/v1` (docs/admin.md). */
export const adminEndpoints: EndpointEntry[] = [
  at('get', '/admin/v1/companies', () => import('./admin/list-companies.js')),
  at('post', '/admin/v1/companies', () => import('./admin/create-company.js')),
  at('get', '/admin/v1/companies/{companyId}/users', () => import('./admin/list-users.js')),
  at('put', '/admin/v1/companies/{companyId}/users/{email}', () => import('./admin/put-user.js')),
  at('get', '/admin/v1/companies/{companyId}/brand', () => import('./admin/get-brand.js')),
  at('put', '/admin/v1/companies/{companyId}/brand', () => import('./admin/put-brand.js')),
  at('get', '/admin/v1/companies/{companyId}/embedding', () => import('./admin/get-embedding.js')),
  at('put', '/admin/v1/companies/{companyId}/embedding', () => import('./admin/put-embedding.js')),
  at('get', '/admin/v1/companies/{companyId}/text-messages', () => import('./admin/get-text-messages.js')),
  at('put', '/admin/v1/companies/{companyId}/text-messages', () => import('./admin/put-text-messages.js')),
  at('get', '/admin/v1/companies/{companyId}/api-keys', () => import('./admin/list-api-keys.js')),
  at('post', '/admin/v1/companies/{companyId}/api-keys', () => import('./admin/create-api-key.js')),
  at('post', '/admin/v1/api-keys/{id}/rotate', () => import('./admin/rotate-api-key.js')),
  at('post', '/admin/v1/api-keys/{id}/revoke', () => import('./admin/revoke-api-key.js')),
  at('get', '/admin/v1/companies/{companyId}/templates', () => import('./admin/list-templates.js')),
  at('post', '/admin/v1/companies/{companyId}/templates', () => import('./admin/import-template.js')),
  at('get', '/admin/v1/companies/{companyId}/templates/{templateId}', () => import('./admin/get-template.js')),
  at('post', '/admin/v1/companies/{companyId}/templates/{templateId}/versions', () => import('./admin/save-template-version.js')),
  at('get', '/admin/v1/companies/{companyId}/templates/{templateId}/versions/{version}', () => import('./admin/get-template-version.js')),
  at('post', '/admin/v1/companies/{companyId}/templates/{templateId}/archive', () => import('./admin/archive-template.js')),
  at('get', '/admin/v1/companies/{companyId}/envelopes', () => import('./admin/list-envelopes.js')),
  at('post', '/admin/v1/envelopes/{id}/void', () => import('./admin/void-envelope.js')),
  at('get', '/admin/v1/envelopes/{id}/document', () => import('./admin/get-envelope-document.js')),
  at('get', '/admin/v1/envelopes/{id}/audit', () => import('./admin/get-envelope-audit.js')),
  at('get', '/admin/v1/dead-jobs', () => import('./admin/list-dead-jobs.js')),
  at('post', '/admin/v1/dead-jobs/{id}/retry', () => import('./admin/retry-dead-job.js')),
];

/** Every endpoint of a table, loaded: for the OpenAPI documents and the tests that read every route. */
export const loadEndpoints = (entries: EndpointEntry[]) => Promise.all(entries.map((entry) => entry.load()));

/**
 * The signing page behind the links (`/sign/{token}` and its forms), its paths relative to `/sign`:
 * HTML for people, so one app (src/signing-page/signing-app.ts) with its own errors, body limit and
 * security, loaded with all its endpoints on a link's first request.
 */
export async function signingPages(): Promise<Hono<AppEnv>> {
  const [{ signingApp }, show, submit, decline, pdf, sendCode, checkCode] = await Promise.all([
    import('../src/signing-page/signing-app.js'),
    import('./signing/show-signing-page.js'),
    import('./signing/submit-signature.js'),
    import('./signing/decline-signing.js'),
    import('./signing/get-signing-document.js'),
    import('./signing/send-verification-code.js'),
    import('./signing/check-verification-code.js'),
  ]);
  return signingApp([
    ['/:token', 'GET', show.showSigningPage],
    ['/:token', 'POST', submit.submitSignature],
    ['/:token/decline', 'POST', decline.declineSigning],
    ['/:token/document.pdf', 'GET', pdf.getSigningDocument],
    ['/:token/code', 'POST', sendCode.sendVerificationCodeHandler],
    ['/:token/verify', 'POST', checkCode.checkVerificationCodeHandler],
  ]);
}

/**
 * Every route of the API Worker but the queue callbacks, which only the Worker serves. The company
 * application (`/app`) is not here: it is served by a Worker of its own (functions/application-routes.ts).
 */
export const routes: RouteEntry[] = [
  document('/v1/openapi.json', async (services) => {
    const [{ publicDocument }, endpoints] = await Promise.all([import('./docs/openapi-documents.js'), loadEndpoints(v1Endpoints)]);
    return publicDocument(endpoints, services.config.baseUrl);
  }),
  ...v1Endpoints,
  document('/admin/v1/openapi.json', async (services) => {
    const [{ adminDocument }, endpoints] = await Promise.all([import('./docs/openapi-documents.js'), loadEndpoints(adminEndpoints)]);
    return adminDocument(endpoints, services.config.baseUrl);
  }),
  ...adminEndpoints,
  // The signing page behind the links: HTML with its own body limit, errors and security headers.
  pages('/sign/*', signingPages),
  // The brand's logo and accent colour, which e-mails and the signing page load.
  pages('/brand/*', async () => (await import('./brand/brand-routes.js')).brandRoutes),
  // The API reference: Redoc over the public document.
  pages('/docs', async () => (await import('./docs/docs-page.js')).docsRoutes),
];

/**
 * The development pages of `npm start` (`/dev/mailbox`, `/dev/sms`, `/dev/webhooks`,
 * `/dev/embed-example`): the Node entry adds this route to the table; no deployment has it.
 */
export const developmentPages = (services: EmbeddedServices) => pages('/dev/*', async () => (await import('../src/dev-pages/dev-pages.js')).devPages(services));

/**
 * Where QStash delivers queued messages, in production only: the Worker adds this route to the
 * table, with the keys that verify QStash's signatures.
 */
export const queueCallbacks = (keys: { current: string; next: string }) =>
  pages('/internal/*', async () => {
    const [{ Receiver }, { queueCallbackRoutes }] = await Promise.all([import('@upstash/qstash'), import('../src/http/queue-callback.js')]);
    // devMode false: these keys, never a local dev server's that QSTASH_DEV would name.
    return queueCallbackRoutes(new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next, devMode: false }));
  });
