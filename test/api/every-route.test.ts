/**
 * Generated from the routing table, so that a route added later is covered without anyone
 * remembering to: every `/v1` route is documented with its scope (docs/api-reference.md, section 4),
 * passes the shared security suite (no, garbage, forged, expired, revoked and rotated tokens, a key
 * without the scope, an owner whose role lacks it, an inactive owner), and, where it takes an id,
 * answers another company's id exactly as an id that does not exist. A route this file does not
 * know how to call fails here until it is added to `exercises`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEndpoints, v1Endpoints } from '../../functions/routes.js';
import type { UserRole } from '../../src/data/schema.js';
import type { Scope } from '../../src/domain/auth/scopes.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { securitySuite } from '../support/security-suite.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

/** The scopes as docs/api-reference.md states them: `GET /v1/templates` → `templates:read`, or `none`. */
const documentedScopes = new Map(
  [...readFileSync(new URL('../../docs/api-reference.md', import.meta.url), 'utf8').matchAll(/^\| [^|]+ \| `([A-Z]+ \/v1\/[^`]+)` \| `?([a-z:]+)`? \|$/gm)].map(
    ([, operation, scope]) => [operation!, scope!],
  ),
);

/** The lowest role without each scope's permission, from the table of roles in docs/api-guide.md. */
const roleWithout: Partial<Record<Scope, UserRole>> = { 'contacts:write': 'viewer', 'envelopes:send': 'viewer', 'webhooks:write': 'member' };

/** What a company holds for its routes to act on: one of each thing a path can name. */
type Holdings = { templateId: string; envelopeId: string; webhookId: string; deliveryId: string };
const holdings = new Map<string, Promise<Holdings>>();
function holdingsOf(company: TestCompany): Promise<Holdings> {
  let made = holdings.get(company.id);
  if (!made) {
    made = (async () => {
      const template = await createTestTemplate(stack, company.id);
      const sent = await call(stack, 'POST', '/v1/envelopes/from-template', { token: company.owner.token, body: sendBody(template.id) });
      // Nothing listens on port 9: the test delivery fails at once, and is a delivery to name.
      const webhook = await call(stack, 'POST', '/v1/webhooks', {
        token: company.owner.token,
        body: { url: `http://127.0.0.1:9/${crypto.randomUUID()}`, events: ['envelope.sent'] },
      });
      if (sent.status !== 201 || webhook.status !== 201) throw new Error(`could not set a company up: ${sent.status} ${webhook.status}`);
      const delivery = await call(stack, 'POST', `/v1/webhooks/${webhook.body.id}/test`, { token: company.owner.token });
      if (delivery.status !== 200) throw new Error(`could not make a delivery: ${delivery.status}`);
      return {
        templateId: template.id,
        envelopeId: sent.body.envelope_id as string,
        webhookId: webhook.body.id as string,
        deliveryId: delivery.body.delivery_id as string,
      };
    })();
    holdings.set(company.id, made);
  }
  return made;
}
const sendBody = (templateId: string) => ({
  template_id: templateId,
  recipients: [
    { role: 'Client', name: 'Cleo Client', email: `cleo-${crypto.randomUUID().slice(0, 8)}@example.test` },
    { role: 'Witness', name: 'Walt Witness', email: `walt-${crypto.randomUUID().slice(0, 8)}@example.test` },
  ],
});

/** How to call each authenticated route for a company: the ids in its path (`{id}`, then `{delivery_id}`), and a body it takes. */
type Exercise = { id?: keyof Holdings; deliveryId?: keyof Holdings; body?: (held: Holdings) => unknown };
const exercises: Record<string, Exercise> = {
  'GET /v1/templates': {},
  'GET /v1/templates/{id}': { id: 'templateId' },
  'GET /v1/contacts': {},
  'POST /v1/contacts': { body: () => ({ name: 'Dana Doe', email: `dana-${crypto.randomUUID().slice(0, 8)}@example.test` }) },
  'POST /v1/envelopes/from-template': { body: (held) => sendBody(held.templateId) },
  'GET /v1/envelopes/{id}/signing-links': { id: 'envelopeId' },
  'GET /v1/webhooks/events': {},
  'GET /v1/webhooks': {},
  'POST /v1/webhooks': { body: () => ({ url: `https://hooks.example.com/${crypto.randomUUID()}`, events: ['envelope.sent'] }) },
  'DELETE /v1/webhooks/{id}': { id: 'webhookId' },
  'GET /v1/webhooks/{id}/deliveries': { id: 'webhookId' },
  'POST /v1/webhooks/{id}/test': { id: 'webhookId' },
  // A window the clock of any test here is inside of: the last day, by the machine's time.
  'POST /v1/webhooks/{id}/replay': { id: 'webhookId', body: () => ({ since: new Date(Date.now() - 24 * 3600 * 1000).toISOString() }) },
  'POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver': { id: 'webhookId', deliveryId: 'deliveryId' },
  'POST /v1/webhooks/{id}/rotate-secret': { id: 'webhookId' },
};

// `security: []` documents a route that takes no bearer token (the token exchange, the document link).
const routes = (await loadEndpoints(v1Endpoints)).map(({ route }) => ({
  operation: `${route.method.toUpperCase()} ${route.path}`,
  method: route.method.toUpperCase(),
  path: route.path,
  secured: 'security' in route && Array.isArray(route.security) && route.security.length > 0,
}));
const pathFor = (path: string, exercise: Exercise, held: Holdings) => {
  const withId = exercise.id ? path.replace('{id}', held[exercise.id]) : path;
  return exercise.deliveryId ? withId.replace('{delivery_id}', held[exercise.deliveryId]) : withId;
};

describe('every /v1 route', () => {
  it.each(routes.map((route) => [route.operation, route] as const))('%s is documented with its scope, and called here', (operation, route) => {
    expect(documentedScopes.get(operation), `${operation} in docs/api-reference.md, section 4`).toBeDefined();
    expect(documentedScopes.get(operation) === 'none').toBe(!route.secured);
    if (route.secured) expect(exercises[operation], `how to call ${operation}: add it to exercises`).toBeDefined();
  });
});

for (const route of routes.filter((candidate) => candidate.secured && exercises[candidate.operation])) {
  const exercise = exercises[route.operation]!;
  const scope = documentedScopes.get(route.operation) as Scope;
  securitySuite(() => stack, {
    method: route.method,
    path: async (company) => pathFor(route.path, exercise, await holdingsOf(company)),
    body: exercise.body ? async (company: TestCompany) => exercise.body!(await holdingsOf(company)) : undefined,
    scope,
    roleWithout: roleWithout[scope],
  });
}

/** An id of the same shape that names nothing: its last characters changed. */
const absent = (id: string) => `${id.slice(0, -4)}${id.slice(-4) === 'abcd' ? 'dcba' : 'abcd'}`;

describe("another company's ids", () => {
  let mine: TestCompany;
  let theirs: Holdings;
  beforeAll(async () => {
    mine = await createTestCompany(stack);
    theirs = await holdingsOf(await createTestCompany(stack));
  });

  const withIds = routes.filter((route) => route.secured && exercises[route.operation]?.id);
  // The download link of a webhook is no API route of a company: its own suite bends it to other envelopes.
  it('are tried on every authenticated route that takes one', () => {
    expect(withIds.map((route) => route.operation).sort()).toEqual(
      routes
        .filter((route) => route.secured && route.path.includes('{'))
        .map((route) => route.operation)
        .sort(),
    );
  });

  it.each(withIds.map((route) => [route.operation, route] as const))('%s: answered exactly as an id that does not exist', async (_, route) => {
    const exercise = exercises[route.operation]!;
    const theirId = theirs[exercise.id!];
    const nobodysId = absent(theirId);
    const body = exercise.body?.(await holdingsOf(mine));
    // A second id (a delivery) is theirs, or nobody's, along with the first.
    const second = (id: string) => (exercise.deliveryId ? (id === theirId ? theirs[exercise.deliveryId] : absent(theirs[exercise.deliveryId])) : '');
    const asTheirs = await call(stack, route.method, route.path.replace('{id}', theirId).replace('{delivery_id}', second(theirId)), {
      token: mine.owner.token,
      body,
    });
    const asNobodys = await call(stack, route.method, route.path.replace('{id}', nobodysId).replace('{delivery_id}', second(nobodysId)), {
      token: mine.owner.token,
      body,
    });
    expect(asTheirs.status).toBe(404);
    expect(JSON.stringify(asTheirs.body).replaceAll(theirId, '<id>')).toBe(JSON.stringify(asNobodys.body).replaceAll(nobodysId, '<id>'));
    expect(asTheirs.status).toBe(asNobodys.status);
  });

  const withSecondIds = withIds.filter((route) => exercises[route.operation]!.deliveryId);
  it.each(withSecondIds.map((route) => [route.operation, route] as const))(
    '%s: their delivery under my subscription is answered as one that does not exist',
    async (_, route) => {
      const exercise = exercises[route.operation]!;
      const held = await holdingsOf(mine);
      const theirId = theirs[exercise.deliveryId!];
      const nobodysId = absent(theirId);
      const path = (deliveryId: string) => route.path.replace('{id}', held[exercise.id!]).replace('{delivery_id}', deliveryId);
      const asTheirs = await call(stack, route.method, path(theirId), { token: mine.owner.token });
      const asNobodys = await call(stack, route.method, path(nobodysId), { token: mine.owner.token });
      expect([asTheirs.status, errorCode(asTheirs)]).toEqual([404, 'delivery_not_found']);
      expect(JSON.stringify(asTheirs.body).replaceAll(theirId, '<id>')).toBe(JSON.stringify(asNobodys.body).replaceAll(nobodysId, '<id>'));
    },
  );
});
