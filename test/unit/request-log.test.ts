/**
 * The request's id and its log line across apps: a routing shell that forwards to an app of its
 * own, as src/app.ts mounts the signing pages (their own guard, error handler and catch-all).
 * The whole app is tried in test/api/request-ids.test.ts; here, the cases it cannot stage.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describe, expect, it } from 'vitest';
import { mountLater } from '../../src/app.js';
import { readNodeConfig } from '../../src/entries/node-config.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { handleError, handleNotFound } from '../../src/http/error-handler.js';
import { requestIdFor } from '../../src/http/request-id.js';
import { followRequest, noteUnknownRoute, type RequestLogLine, trackRequests } from '../../src/http/request-log.js';
import type { Services } from '../../src/services.js';
import { expectErrorLogs } from '../support/expected-errors.js';

const GENERATED = /^req_[0-9A-Za-z]{22}$/;

describe('requestIdFor', () => {
  it.each(['a', 'req_abc', 'Ab9._:-', 'x'.repeat(128), '2026-11-26T08:00:00Z'])('keeps %j', (id) => {
    expect(requestIdFor(id)).toBe(id);
  });

  it.each([
    ['nothing', undefined],
    ['an empty value', ''],
    ['129 characters', 'x'.repeat(129)],
    ['CR', 'abc\rdef'],
    ['LF', 'abc\ndef'],
    ['CRLF and a header of its own', 'abc\r\nSet-Cookie: a=b'],
    ['a NUL', 'abc\u0000'],
    ['a tab', 'abc\tdef'],
    ['a space', 'abc def'],
    ['a quote', 'abc"def'],
    ['a character outside ASCII', 'r\u00e9q'],
  ])('replaces %s with a fresh id', (_kind, id) => {
    const first = requestIdFor(id);
    expect(first).toMatch(GENERATED);
    expect(requestIdFor(id)).not.toBe(first);
  });
});

describe('a request forwarded to an app of its own', () => {
  const { expectLogged } = expectErrorLogs();

  /** Stands in for the signing pages: a guard on every path, its own errors, a catch-all page. */
  function pages() {
    const app = new Hono<AppEnv>();
    app.onError((_err, c) => c.text('page error', 500));
    app.use('/*', async (c, next) => {
      if (c.req.path.endsWith('/limited')) return c.text('slow down', 429);
      if (c.req.path.endsWith('/broken')) throw new Error('guard broke');
      await next();
    });
    app.get('/:token', (c) => c.text('the page'));
    app.post('/:token', async (c) => c.text(`read ${(await c.req.text()).length}`));
    app.get('/:token/limited', (c) => c.text('never'));
    app.get('/:token/broken', (c) => c.text('never'));
    app.all('/:token', (c) => c.text('method not allowed', 405));
    app.all('/*', (c) => c.text('no such link', 404));
    return app;
  }

  function shell() {
    const lines: RequestLogLine[] = [];
    const services = { requestLog: (line: RequestLogLine) => lines.push(line) } as unknown as Services;
    const root = new Hono<AppEnv>();
    root.use('*', trackRequests(services));
    root.onError(handleError);
    root.notFound((c) => {
      noteUnknownRoute(c);
      return handleNotFound(c);
    });
    root.use('*', followRequest);
    // A body without a length is read here first, and what is forwarded is a new Request.
    root.use('/sign/*', bodyLimit({ maxSize: 1024 }));
    mountLater(root, '/sign/*', services, async () => pages());
    mountLater(root, '/broken/*', services, () => Promise.reject(new Error('module failed to load')));
    return { root, lines };
  }

  it.each<[string, string, string, RequestInit, number, string | null]>([
    ['a page', 'GET', '/sign/tok.secret', {}, 200, '/sign/{token}'],
    ['a guard that answers', 'GET', '/sign/tok.secret/limited', {}, 429, '/sign/{token}/limited'],
    ['a guard that throws', 'GET', '/sign/tok.secret/broken', {}, 500, '/sign/{token}/broken'],
    ['another method', 'PUT', '/sign/tok.secret', {}, 405, '/sign/{token}'],
    ['the catch-all page', 'GET', '/sign/tok.secret/a/b', {}, 404, '/sign/*'],
    ['no route at all', 'GET', '/elsewhere/tok.secret', {}, 404, null],
  ])('%s: %s %s', async (_kind, method, path, init, status, route) => {
    const { root, lines } = shell();
    const answer = await root.request(path, { method, ...init });
    expect(answer.status).toBe(status);
    const id = answer.headers.get('x-request-id');
    expect(id).toMatch(GENERATED);
    expect(lines).toEqual([{ request_id: id, method, route, status, duration_ms: expect.any(Number), company_id: null }]);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('follows a body that was read before it was forwarded (no Content-Length)', async () => {
    const { root, lines } = shell();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('signature=abc'));
        controller.close();
      },
    });
    const request = new Request('http://localhost/sign/tok.secret', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const answer = await root.request(request);
    expect(await answer.text()).toBe('read 13');
    expect(lines).toEqual([expect.objectContaining({ request_id: answer.headers.get('x-request-id'), route: '/sign/{token}', status: 200 })]);
  });

  it('answers an app that failed to load with 500, logged under the pattern it was mounted at', async () => {
    expectLogged(/unhandled error on GET \/broken\/\* \(request req_/);
    const { root, lines } = shell();
    const answer = await root.request('/broken/tok.secret');
    expect(answer.status).toBe(500);
    expect(lines).toEqual([expect.objectContaining({ request_id: answer.headers.get('x-request-id'), route: '/broken/*', status: 500 })]);
  });
});

describe('LOG_REQUESTS of npm start', () => {
  it('is on unless set to false, and refuses anything else, naming itself', () => {
    expect(readNodeConfig({}).LOG_REQUESTS).toBe('true');
    expect(readNodeConfig({ LOG_REQUESTS: 'false' }).LOG_REQUESTS).toBe('false');
    expect(readNodeConfig({ LOG_REQUESTS: 'true' }).LOG_REQUESTS).toBe('true');
    for (const bad of ['0', 'no', 'FALSE', '']) expect(() => readNodeConfig({ LOG_REQUESTS: bad })).toThrow('LOG_REQUESTS: must be true or false');
  });
});
