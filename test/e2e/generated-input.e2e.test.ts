/**
 * The generated hostile input of test/api/generated-input.test.ts, against `npm run dev` (the
 * Worker in workerd over PostgreSQL and Redis) over HTTP: every route of the app's routing table
 * and the queue callback, answered with a documented code or page, never a 5xx or a stack trace.
 * The token exchange is left out here (each call spends this address's 20 exchanges, which other
 * suites need); the embedded run covers it.
 */
import { Receiver } from '@upstash/qstash';
import fc from 'fast-check';
import { Hono } from 'hono';
import { describe, expect, inject, it } from 'vitest';
import { routes as routingTable, signingPages } from '../../functions/routes.js';
import { createApp } from '../../src/app.js';
import { queueCallbackRoutes } from '../../src/http/queue-callback.js';
import type { Services } from '../../src/services.js';
import { asPathSegment, body, expectDocumentedAnswer, pathId, query, uniqueRoutes, who } from '../support/hostile-input.js';

const RUNS = Number(process.env.FUZZ_RUNS_E2E ?? 6);
// The routing table of the app the Worker serves: building it reads nothing from the services.
const app = createApp({ config: { baseUrl: 'http://routes.local' } } as Services, routingTable);
app.route('/internal', queueCallbackRoutes(new Receiver({ currentSigningKey: 'x', nextSigningKey: 'y' })));
// The signing pages are mounted behind `/sign/*` and loaded on their first request: their own table.
const routes = uniqueRoutes([...app.routes, ...new Hono().route('/sign', await signingPages()).routes]).filter((route) => route.path !== '/v1/auth/token');

describe('generated hostile input on npm run dev', () => {
  it('answers every route with a documented code or page, never a 5xx', async () => {
    expect(routes.length).toBeGreaterThan(30);
    const base = inject('e2eBaseUrl');
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(body, pathId, query, who, async (sent, id, params, caller) => {
          const path = route.path.replaceAll(/:(\w+)/g, () => asPathSegment(id));
          const search = Object.entries(params as Record<string, string>)
            .map(([name, value]) => `${name}=${asPathSegment(value)}`)
            .join('&');
          const headers: Record<string, string> = { 'content-type': sent.type };
          if (caller === 'owner') headers.authorization = `Bearer ${inject('quotaTwoToken')}`;
          if (caller === 'admin') headers.authorization = `Bearer ${inject('e2eAdminToken')}`;
          if (caller === 'garbage') headers.authorization = `Bearer ${id.replace(/[^\x20-\x7e]/g, '~')}`;
          const init: RequestInit = { method: route.method, headers, redirect: 'manual' };
          if (!['GET', 'HEAD'].includes(route.method)) init.body = sent.text;
          await expectDocumentedAnswer(await fetch(`${base}${path}${search ? `?${search}` : ''}`, init), `${route.method} ${path}`);
        }),
        { numRuns: RUNS, seed: 20261124, endOnFailure: true },
      );
    }
  }, 300_000);
});
