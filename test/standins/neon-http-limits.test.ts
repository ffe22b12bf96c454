/**
 * The Neon stand-in refuses, as Neon's proxy does, a request body over 64 MiB (413) and an answer
 * over 64 MiB (507), each with Neon's message; exactly 64 MiB passes both ways.
 */
import { PGlite } from '@electric-sql/pglite';
import { neon, neonConfig } from '@neondatabase/serverless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNeonHttpStandin, NEON_HTTP_LIMITS } from '../../local/standins/neon-http.js';
import { pgliteExecutor } from '../../local/standins/sql-executors.js';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';

const LIMIT = 64 * 1024 * 1024;
const connectionString = 'postgresql://app:secret@db.local.test/esign';
let served: ServedStandin;

beforeAll(async () => {
  served = await serveStandin(createNeonHttpStandin(await pgliteExecutor(new PGlite(), { closeDbOnClose: true })));
});
afterAll(() => served?.close());

/** A call as the driver makes it (array mode, raw text), with the body given as is. */
function post(body: string) {
  return fetch(`${served.url}/sql`, {
    method: 'POST',
    headers: { 'Neon-Connection-String': connectionString, 'Neon-Array-Mode': 'true', 'Neon-Raw-Text-Output': 'true', 'content-type': 'application/json' },
    body,
  });
}

/** A `select 1` whose body is padded with a field the stand-in ignores, to exactly `bytes` bytes. */
function paddedBody(bytes: number): string {
  const head = '{"query":"select 1","params":[],"padding":"';
  const tail = '"}';
  return `${head}${'x'.repeat(bytes - head.length - tail.length)}${tail}`;
}

/** A query whose answer is `length` ASCII letters plus the answer's fixed frame. */
const lettersQuery = (length: number) => JSON.stringify({ query: 'select repeat($1, $2::int) as letters', params: ['a', String(length)] });

// Each test moves twice 64 MiB through the stand-in and PGlite: tens of seconds on a busy machine.
// The bound is against a hang, not a measure of speed.
describe('the Neon stand-in at Neon’s 64 MiB limits', { timeout: 180_000 }, () => {
  it('holds Neon’s limits by default', () => {
    expect(NEON_HTTP_LIMITS).toEqual({ maxRequestBytes: LIMIT, maxResponseBytes: LIMIT });
  });

  it('answers a request body of exactly 64 MiB, and refuses one byte more with 413', async () => {
    const atLimit = await post(paddedBody(LIMIT));
    expect(atLimit.status).toBe(200);
    expect(await atLimit.json()).toMatchObject({ rows: [['1']] });
    const past = await post(paddedBody(LIMIT + 1));
    expect(past.status).toBe(413);
    expect(await past.json()).toEqual({ message: `request is too large (max is ${LIMIT} bytes)` });
  });

  it('gives an answer of exactly 64 MiB, and refuses one byte more with 507', async () => {
    const frame = (await (await post(lettersQuery(0))).arrayBuffer()).byteLength;
    const atLimit = await post(lettersQuery(LIMIT - frame));
    expect(atLimit.status).toBe(200);
    expect((await atLimit.arrayBuffer()).byteLength).toBe(LIMIT);
    const past = await post(lettersQuery(LIMIT - frame + 1));
    expect(past.status).toBe(507);
    expect(await past.json()).toEqual({ message: `response is too large (max is ${LIMIT} bytes)` });
  });

  it('reaches the driver as Neon’s own error', async () => {
    neonConfig.fetchEndpoint = () => `${served.url}/sql`;
    const sql = neon(connectionString);
    const refused = sql.query('select repeat($1, $2::int) as letters', ['a', LIMIT + 1]);
    await expect(refused).rejects.toThrow('Server error (HTTP status 507)');
    await expect(refused).rejects.toThrow(`response is too large (max is ${LIMIT} bytes)`);
  });
});
