/**
 * The API Worker (src/entries/worker.ts) forwards every request under `/app` to the company
 * application's Worker through its `APP` binding, unchanged, and no other: the binding is a
 * stand-in (vitest.workerd.config.ts) that answers with what reached it.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

const BASE = 'https://esign.example.test';

type Received = { method: string; url: string; headers: Record<string, string>; body: string };

const worker = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`${BASE}${path}`, init));

async function forwarded(response: Response): Promise<Received> {
  expect(response.headers.get('x-answered-by')).toBe('esign-app');
  return (await response.json()) as Received;
}

describe('the API Worker and the application’s Worker', () => {
  it('forwards /app itself and every path under it, with its query', async () => {
    for (const path of ['/app', '/app/', '/app/envelopes?status=completed', '/app/templates/abc/document.pdf']) {
      const received = await forwarded(await worker(path));
      expect(received).toMatchObject({ method: 'GET', url: `${BASE}${path}` });
    }
  });

  it('forwards a form post unchanged: method, headers, cookie and body', async () => {
    const body = 'email=ada%40example.test&_csrf=abc';
    const response = await worker('/app/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'session=s1', 'cf-connecting-ip': '203.0.113.9' },
      body,
    });
    const received = await forwarded(response);
    expect(received.method).toBe('POST');
    expect(received.body).toBe(body);
    expect(received.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', cookie: 'session=s1', 'cf-connecting-ip': '203.0.113.9' });
  });

  it('answers every other path itself, those that only begin like /app included', async () => {
    for (const path of ['/apple', '/application', '/v1/app', '/admin/v1/companies', '/v1/openapi.json', '/sign/x']) {
      const response = await worker(path);
      expect(response.headers.get('x-answered-by'), path).toBeNull();
    }
  });
});
