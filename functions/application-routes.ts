/**
 * The company application's place in the routing table, apart from functions/routes.ts: the API
 * Worker's table does not name it, so that none of the application's code is in that Worker's
 * bundle (its cold start). The application is served by a Worker of its own
 * (src/entries/app-worker.ts, wrangler.app.toml), which the API Worker forwards `/app/*` to; under
 * `npm start` the one Node process mounts it with the rest (src/entries/node.ts).
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../src/http/app-env.js';
import type { PagesEntry } from './routes.js';

/**
 * The company application (`/app` and its pages, relative to `/app`): HTML for a company's people,
 * signed in with a session, in one app (src/company-app/company-app.ts) with its own errors, body
 * limit and security, loaded with all its endpoints on its first request.
 */
export async function applicationPages(): Promise<Hono<AppEnv>> {
  const [{ companyApp }, home, requestSignIn, showLink, spendLink, companies, choose, signOut, envelopes, keys, users, webhooks, settings, audit, templates] =
    await Promise.all([
      import('../src/company-app/company-app.js'),
      import('./app/show-home.js'),
      import('./app/request-sign-in.js'),
      import('./app/show-sign-in-link.js'),
      import('./app/spend-sign-in-link.js'),
      import('./app/show-companies.js'),
      import('./app/choose-company.js'),
      import('./app/sign-out.js'),
      import('./app/envelope-routes.js'),
      import('./app/keys-routes.js'),
      import('./app/user-routes.js'),
      import('./app/webhook-routes.js'),
      import('./app/settings-routes.js'),
      import('./app/audit-routes.js'),
      import('./app/template-routes.js'),
    ]);
  return companyApp([
    ['/', 'GET', home.showHome],
    ['/sign-in', 'POST', requestSignIn.requestSignIn],
    ['/sign-in/:token', 'GET', showLink.showSignInLink],
    ['/sign-in/:token', 'POST', spendLink.spendLink],
    ['/company', 'GET', companies.showCompanies],
    ['/company', 'POST', choose.chooseCompany],
    ['/sign-out', 'POST', signOut.signOutHandler],
    ...envelopes.envelopeRoutes,
    ...keys.keyRoutes,
    ...users.userRoutes,
    ...webhooks.webhookRoutes,
    ...settings.settingsRoutes,
    ...audit.auditRoutes,
    ...templates.templateRoutes,
  ]) as unknown as Hono<AppEnv>;
}

/** The application under `/app`, as the routing table mounts pages. */
export const applicationRoute: PagesEntry = { kind: 'pages', pattern: '/app/*', load: applicationPages };
