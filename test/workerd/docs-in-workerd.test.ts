/**
 * The API reference page from the Worker itself (src/entries/worker.ts) inside workerd: the same
 * page and content policy as on Node (test/api/api-reference-page.test.ts). Its Redoc script is
 * one of the Worker's static assets (public/static/), which Cloudflare serves before the Worker.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DOCS_CSP, REDOC_SCRIPT_PATH } from '../../functions/docs/docs-page.js';

const worker = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`https://esign.example.test${path}`, init));

describe('GET /docs on the Worker', () => {
  it('answers the Redoc page over /v1/openapi.json with its content policy', async () => {
    const response = await worker('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).toContain('<redoc spec-url="/v1/openapi.json"></redoc>');
    expect(html).toContain(`<script src="${REDOC_SCRIPT_PATH}"></script>`);
  });

  it('answers another method with the JSON not_found', async () => {
    const response = await worker('/docs', { method: 'POST' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
