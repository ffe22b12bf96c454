/**
 * The API reference on `npm run dev` (workerd, with the Worker's static assets as wrangler serves
 * them): the page from the Worker, and the Redoc bundle it loads from public/static/, with the
 * headers of public/_headers.
 */
import { describe, expect, it } from 'vitest';
import { DOCS_CSP, REDOC_SCRIPT_PATH } from '../../functions/docs/docs-page.js';
import { api } from './client.js';

describe('the API reference on npm run dev', () => {
  it('serves /docs with its content policy, and the Redoc script it names as JavaScript', async () => {
    const page = await api('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(page.body).toContain(`<script src="${REDOC_SCRIPT_PATH}"></script>`);

    const script = await api('GET', REDOC_SCRIPT_PATH);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^(?:text|application)\/javascript\b/);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(String(script.body)).toContain('spec-url');
  });
});
