/**
 * `npm run dev` and kept-alive connections: after an answer given before the request body was read
 * to its end, the client's next request on the same connection is answered. The case that hung: a
 * chunked body over 1 MiB, which the size limit reads up to the limit and refuses with 413.
 */
import { describe, expect, inject, it } from 'vitest';
import { type Body, bytes, jsonOf, oneConnection, pause } from '../embedded/connection-client.js';

const MiB = 1024 * 1024;
const json = { 'content-type': 'application/json' };

type Early = { method: string; path: string; headers?: Record<string, string>; body: Body; status: number; code: string };

const earlyAnswers: [string, Early][] = [
  [
    '413 to a chunked body of 2 MiB',
    { method: 'POST', path: '/v1/contacts', headers: json, body: { bytes: bytes(2 * MiB), chunked: true }, status: 413, code: 'payload_too_large' },
  ],
  [
    '413 to a declared length of 2 MiB',
    { method: 'POST', path: '/v1/contacts', headers: json, body: { bytes: bytes(2 * MiB) }, status: 413, code: 'payload_too_large' },
  ],
  [
    '401 to a request without a token',
    { method: 'POST', path: '/v1/contacts', headers: json, body: { bytes: jsonOf(200_000) }, status: 401, code: 'unauthorized' },
  ],
  [
    '404 to an unknown route',
    { method: 'POST', path: '/v1/nothing-here', headers: json, body: { bytes: jsonOf(200_000), chunked: true }, status: 404, code: 'not_found' },
  ],
  [
    '405 to another method on a known path',
    { method: 'PATCH', path: '/v1/contacts', headers: json, body: { bytes: jsonOf(200_000) }, status: 405, code: 'method_not_allowed' },
  ],
  [
    // With a token made for the run: the token exchange has a per-address limit the suites share.
    '422 to a content type the endpoint does not take',
    {
      method: 'POST',
      path: '/v1/contacts',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${inject('acmeToken')}` },
      body: { bytes: jsonOf(200_000) },
      status: 422,
      code: 'validation_failed',
    },
  ],
];

async function nextRequestAnswered(client: ReturnType<typeof oneConnection>) {
  const next = await client.send(inject('e2eBaseUrl'), 'GET', '/v1/openapi.json');
  expect(next.status).toBe(200);
  expect(JSON.parse(next.body)).toMatchObject({ openapi: '3.1.0' });
  return next;
}

describe('an answer given before the request body was read', () => {
  it.each(earlyAnswers)('%s: the next request on the connection is answered', async (_, early) => {
    const client = oneConnection();
    try {
      for (const wait of [0, 700]) {
        const first = await client.send(inject('e2eBaseUrl'), early.method, early.path, { headers: early.headers, body: early.body });
        expect(first.status).toBe(early.status);
        expect(JSON.parse(first.body)).toMatchObject({ error: { code: early.code } });
        await pause(wait);
        const next = await nextRequestAnswered(client);
        // A connection the answer said was kept is the one the next request goes over.
        if (first.connection !== 'close') expect(next.reused).toBe(true);
      }
    } finally {
      client.close();
    }
  });

  it('a chunked body over every limit: 413 with Connection: close, and the next request is answered on a new connection', async () => {
    const client = oneConnection();
    try {
      // Past what npm run dev's proxy reads whole (28 MiB, scripts/dev.ts), so it cuts the body off.
      const refused = await client.send(inject('e2eBaseUrl'), 'POST', '/v1/contacts', { headers: json, body: { bytes: bytes(30 * MiB), chunked: true } });
      expect([refused.status, refused.connection]).toEqual([413, 'close']);
      expect((await nextRequestAnswered(client)).reused).toBe(false);
    } finally {
      client.close();
    }
  });
});
