/**
 * `npm start` and kept-alive connections: an answer given before the request body was read (413,
 * 401, 404, 405, 422) must leave the connection fit for the client's next request, or say
 * `Connection: close` so that the client opens another. The real server, in a child process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, bytes, jsonOf, oneConnection, pause } from './connection-client.js';
import { freePort, type ServerRun, startServer } from './server-process.js';

const MiB = 1024 * 1024;
const json = { 'content-type': 'application/json' };

let server: ServerRun;
let scratch: string;
let base: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'esign-kept-alive-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer({ PORT: String(port), DATA_DIR: join(scratch, 'data') });
}, 90_000);

afterAll(async () => {
  server?.kill();
  await server?.ended;
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

type Early = { method: string; path: string; headers?: Record<string, string>; body: Body; status: number; code: string };

// Bodies of 200 kB: more than the web stream the app is handed holds, so that most of each is still
// unread when the answer is given.
const earlyAnswers: [string, Early][] = [
  [
    '413 to a chunked body over 1 MiB',
    { method: 'POST', path: '/v1/contacts', headers: json, body: { bytes: bytes(2 * MiB), chunked: true }, status: 413, code: 'payload_too_large' },
  ],
  [
    '401 to a request without a token',
    { method: 'POST', path: '/v1/contacts', headers: json, body: { bytes: jsonOf(200_000) }, status: 401, code: 'unauthorized' },
  ],
  ['404 to an unknown route', { method: 'POST', path: '/v1/nothing-here', headers: json, body: { bytes: jsonOf(200_000) }, status: 404, code: 'not_found' }],
  [
    '405 to another method on a known path',
    { method: 'PATCH', path: '/v1/contacts', headers: json, body: { bytes: jsonOf(200_000) }, status: 405, code: 'method_not_allowed' },
  ],
  [
    '422 to a content type the endpoint does not take',
    {
      method: 'POST',
      path: '/v1/auth/token',
      headers: { 'content-type': 'text/plain' },
      body: { bytes: jsonOf(200_000) },
      status: 422,
      code: 'validation_failed',
    },
  ],
];

/** The next request on the connection, and what it must get. */
async function nextRequestAnswered(client: ReturnType<typeof oneConnection>) {
  const next = await client.send(base, 'GET', '/v1/openapi.json');
  expect(next.status).toBe(200);
  expect(JSON.parse(next.body)).toMatchObject({ openapi: '3.1.0' });
  return next;
}

describe('an answer given before the request body was read', () => {
  it.each(earlyAnswers)('%s keeps the connection open, and the next request on it is answered', async (_, early) => {
    const client = oneConnection();
    try {
      const first = await client.send(base, early.method, early.path, { headers: early.headers, body: early.body });
      expect(first.status).toBe(early.status);
      expect(JSON.parse(first.body)).toMatchObject({ error: { code: early.code } });
      expect(first.connection).toBe('keep-alive');
      // Straight after, and again past the half second after which the Node adapter used to give
      // up on the unread body and destroy the socket.
      expect((await nextRequestAnswered(client)).reused).toBe(true);
      await client.send(base, early.method, early.path, { headers: early.headers, body: early.body });
      await pause(700);
      expect((await nextRequestAnswered(client)).reused).toBe(true);
    } finally {
      client.close();
    }
  });

  it('says Connection: close when more than 1 MiB of the body is left, and the next request goes on a new connection', async () => {
    const client = oneConnection();
    try {
      const refused = await client.send(base, 'POST', '/v1/contacts', { headers: json, body: { bytes: bytes(2 * MiB) } });
      expect(refused.status).toBe(413);
      expect(refused.connection).toBe('close');
      expect((await nextRequestAnswered(client)).reused).toBe(false);
    } finally {
      client.close();
    }
  });

  it('lets a client still sending a large body read its answer instead of a reset', async () => {
    const client = oneConnection();
    try {
      for (let i = 0; i < 3; i++) {
        const admin = await client.send(base, 'POST', '/admin/v1/companies', { headers: json, body: { bytes: bytes(20 * MiB) } });
        expect([admin.status, admin.connection]).toEqual([401, 'close']);
        const v1 = await client.send(base, 'POST', '/v1/contacts', { headers: json, body: { bytes: bytes(20 * MiB), chunked: true } });
        expect([v1.status, v1.connection]).toEqual([413, 'close']);
        await nextRequestAnswered(client);
      }
    } finally {
      client.close();
    }
  }, 60_000);
});
