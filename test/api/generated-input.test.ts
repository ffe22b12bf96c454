/**
 * Hostile input, generated: fast-check throws made-up bodies, queries, headers, path ids and form
 * posts at every route the app serves — read from the app's own routing table (public, admin,
 * signing, the company application, the dev pages and the queue callback), so a route added later
 * is fuzzed too — and every answer must be of a documented shape: JSON `{ error: { code, message,
 * details } }` with a code the guides document (or a success), or for the pages an HTML page; never a 5xx,
 * never a stack trace. Bounded in `npm test` (FUZZ_RUNS, default 25 per route, seeded); `.ci/run`
 * runs it longer with other seeds.
 */
import { Receiver } from '@upstash/qstash';
import fc from 'fast-check';
import { Hono } from 'hono';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devMailboxRoutes } from '../../src/dev-pages/mailbox-page.js';
import { devWebhookRoutes } from '../../src/dev-pages/webhook-inbox-page.js';
import { queueCallbackRoutes } from '../../src/http/queue-callback.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { signingPages } from '../../functions/routes.js';
import { applicationPages } from '../../functions/application-routes.js';
import { asPathSegment, body, expectDocumentedAnswer, pathId, query, uniqueRoutes, who } from '../support/hostile-input.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let stack: TestStack;
let company: TestCompany;
let routes: { method: string; path: string }[];
const ids: Record<string, string> = {};
beforeAll(async () => {
  stack = await openStack();
  // The routes the entries add beside the app: the dev pages (npm start) and the queue callback (the Worker).
  stack.app.route('/dev', devMailboxRoutes(stack.services.mailbox));
  stack.app.route('/dev', devWebhookRoutes(stack.services));
  stack.app.route('/internal', queueCallbackRoutes(new Receiver({ currentSigningKey: 'sig_fuzz_current', nextSigningKey: 'sig_fuzz_next' })));
  company = await createTestCompany(stack);
  const template = await createTestTemplate(stack, company.id);
  ids.template = template.id;
  ids.company = company.id;
  // The signing pages and the company application are mounted behind `/sign/*` and `/app/*` and
  // loaded on their first request: their own tables.
  routes = uniqueRoutes([
    ...stack.app.routes,
    ...new Hono().route('/sign', await signingPages()).routes,
    ...new Hono().route('/app', await applicationPages()).routes,
  ]);
}, 60_000);
afterAll(() => stack.close());

describe('generated hostile input, on every route of the app', () => {
  it('reaches every kind of route: public, admin, signing, the application, dev and queue', () => {
    const paths = routes.map((route) => route.path);
    for (const prefix of ['/v1/', '/admin/v1/', '/sign/', '/app/', '/dev/', '/internal/queue/'])
      expect(
        paths.some((path) => path.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });

  it('answers everything with a documented code or page, never a 5xx', async () => {
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(body, pathId, query, who, fc.boolean(), async (sent, id, params, caller, realIds) => {
          // Real ids where the path names one, so that the validation behind them is reached too.
          const path = route.path.replaceAll(/:(\w+)/g, (_, name: string) =>
            asPathSegment(realIds ? (name === 'companyId' ? ids.company! : name === 'id' && route.path.includes('template') ? ids.template! : id) : id),
          );
          const search = Object.entries(params as Record<string, string>)
            .map(([name, value]) => `${name}=${asPathSegment(value)}`)
            .join('&');
          const headers: Record<string, string> = {
            'content-type': sent.type,
            'x-test-client-ip': `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
          };
          if (caller === 'owner') headers.authorization = `Bearer ${company.owner.token}`;
          if (caller === 'admin') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
          // A header carries no control or non-Latin-1 characters: no client can send them.
          if (caller === 'garbage') headers.authorization = `Bearer ${id.replace(/[^\x20-\x7e]/g, '~')}`;
          const init: RequestInit = { method: route.method, headers };
          if (!['GET', 'HEAD'].includes(route.method)) init.body = sent.text;
          const response = await stack.app.request(`${path}${search ? `?${search}` : ''}`, init);
          await expectDocumentedAnswer(response, `${route.method} ${path}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  }, 600_000);

  it('refuses forged tokens on an authenticated route: alg none, HS/RS confusion, no exp', async () => {
    const claims = { cid: company.id, kid: company.owner.id, ver: 1 };
    const { publicKey } = await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    );
    // HS/RS confusion: an HS256 token whose key is a public key, as a verifier that took RS256 keys would misuse it.
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
    const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(spki);
    const rsSigned = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(
        (
          await crypto.subtle.generateKey(
            { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
            true,
            ['sign'],
          )
        ).privateKey,
      );
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const none = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...claims, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 })}.`;
    const [header, payload, signature] = company.owner.token.split('.');
    const withoutExp = `${header}.${encode({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), exp: undefined })}.${signature}`;
    for (const token of [confused, rsSigned, none, withoutExp]) {
      const response = await stack.app.request('/v1/templates', { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
  });
});
