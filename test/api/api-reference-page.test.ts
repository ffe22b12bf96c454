/**
 * The API reference at /docs: a page that loads Redoc from the service itself and points it at the
 * service's own OpenAPI document, under a content policy that lets nothing in from another origin;
 * and the document groups every operation and event under a described tag. (The page rendered in
 * a real browser: test/browser/api-reference.browser.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDOC_SCRIPT_PATH } from '../../functions/docs/docs-page.js';
import { staticFiles } from '../../src/entries/static-files.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

/** The policy's directives: `script-src` → [`'self'`]. */
const directives = (policy: string) =>
  new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );

describe('GET /docs', () => {
  it('is an HTML page that runs Redoc from this service over its own /v1/openapi.json', async () => {
    const answer = await call(stack, 'GET', '/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = answer.body as string;
    expect(html).toContain('<redoc spec-url="/v1/openapi.json"></redoc>');
    // One script, ours, by its path on this origin; nothing inline for the policy to allow.
    expect([...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag)).toEqual([`<script src="${REDOC_SCRIPT_PATH}">`]);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });

  it('allows scripts, styles, fonts, images and requests from its own origin only, and is never framed', async () => {
    const { headers } = await call(stack, 'GET', '/docs');
    const policy = directives(headers.get('content-security-policy') ?? '');
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    // styled-components writes <style> elements at run time, and the search runs in a blob: worker.
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('worker-src')).toEqual(['blob:']);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    expect(policy.get('font-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    for (const sources of policy.values()) for (const source of sources) expect(source).toMatch(/^(?:'[a-z-]+'|data:|blob:)$/);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers other methods and paths under it with the JSON not_found, never a 500', async () => {
    for (const [method, path] of [
      ['POST', '/docs'],
      ['GET', '/docs/nothing'],
      ['GET', '/doc'],
    ] as const) {
      const answer = await call(stack, method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code, `${method} ${path}`).toBe('not_found');
    }
  });
});

describe('the Redoc bundle on the embedded server', () => {
  it('is served from public/static/vendor/ as JavaScript, with the static files’ headers', async () => {
    const response = await staticFiles().request(REDOC_SCRIPT_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(?:text|application)\/javascript\b/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const script = await response.text();
    // The standalone build, which starts itself on the page's <redoc spec-url> element.
    expect(script).toContain('spec-url');
    expect(script.length).toBeGreaterThan(500_000);
  });
});

describe('the reference’s groups in /v1/openapi.json', () => {
  type Operation = { operationId?: string; tags?: string[]; security?: unknown[] };
  const operationsOf = (section: Record<string, Record<string, Operation>>) =>
    Object.entries(section).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, ...operation })),
    );

  it('puts every operation and every event under exactly one tag the document describes, with an id of its own', async () => {
    const document = (await call(stack, 'GET', '/v1/openapi.json')).body;
    const described = new Map((document.tags as { name: string; description: string }[]).map((tag) => [tag.name, tag.description]));
    expect([...described.keys()]).toEqual(['Authentication', 'Templates', 'Contacts', 'Envelopes', 'Webhooks']);
    for (const description of described.values()) expect(description.length).toBeGreaterThan(20);
    const events = operationsOf(document.webhooks);
    expect(events.map(({ name }) => name)).toContain('POST envelope.document_ready');
    const all = [...operationsOf(document.paths), ...events];
    for (const { name, tags, operationId } of all) {
      expect(tags, name).toHaveLength(1);
      expect(described.has(tags![0]!), name).toBe(true);
      expect(operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
    }
    expect(new Set(all.map(({ operationId }) => operationId)).size).toBe(all.length);
    expect(new Set(all.map(({ tags }) => tags![0])).size).toBe(described.size);
  });

  it('says which operations take no bearer token: the token exchange, the document link and the events', async () => {
    const document = (await call(stack, 'GET', '/v1/openapi.json')).body;
    const open = [...operationsOf(document.paths), ...operationsOf(document.webhooks)].filter(({ security }) => security?.length === 0).map(({ name }) => name);
    expect(open).toEqual(['POST /v1/auth/token', 'GET /v1/documents/{envelope_id}', ...operationsOf(document.webhooks).map(({ name }) => name)]);
    for (const { name, security } of operationsOf(document.paths).filter(({ name }) => !open.includes(name)))
      expect(security, name).toEqual([{ bearerAuth: [] }]);
  });
});
