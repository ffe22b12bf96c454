import { neon, neonConfig } from '@neondatabase/serverless';
import { Client } from '@upstash/qstash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningStandins, startStandins } from '../../local/standins/start.js';
import { serveStandin } from '../../local/standins/standin.js';

// startStandins without outside services: Neon over PGlite, QStash, and no Redis stand-in.
describe('startStandins (embedded)', () => {
  let standins: RunningStandins;

  beforeAll(async () => {
    standins = await startStandins({ qstash: { retryTimeScale: 0.001 } });
  });

  afterAll(async () => {
    await standins?.close();
  });

  it('serves the Neon stand-in over PGlite and QStash, and no Redis stand-in without a Redis URL', async () => {
    expect(standins.neon.backend).toBe('pglite');
    expect(standins.redis).toBeUndefined();
    neonConfig.fetchEndpoint = () => standins.neon.sqlEndpoint;
    const sql = neon('postgresql://dev:dev@localhost/esign');
    expect(await sql`select ${'pglite'}::text as backend`).toEqual([{ backend: 'pglite' }]);

    const arrived: string[] = [];
    const receiver = await serveStandin({
      fetch: async (request) => {
        arrived.push(await request.text());
        return new Response('ok');
      },
      close: async () => {},
    });
    try {
      const client = new Client({ baseUrl: standins.qstash.url, token: standins.qstash.token });
      const { messageId } = await client.publishJSON({ url: `${receiver.url}/hook`, body: { ok: true } });
      await expect.poll(() => standins.qstash.messages().find((m) => m.messageId === messageId)?.state).toBe('DELIVERED');
      expect(arrived).toEqual(['{"ok":true}']);
    } finally {
      await receiver.close();
    }
  });

  it('closes every server, and fails cleanly when a port is taken', async () => {
    // A pg pool connects lazily, so an unreachable server keeps these starts quick (no PGlite).
    const postgresUrl = 'postgres://nobody@127.0.0.1:9/none';
    const other = await startStandins({ postgresUrl });
    const taken = Number(new URL(other.qstash.url).port);
    await expect(startStandins({ postgresUrl, ports: { qstash: taken } })).rejects.toThrow(/EADDRINUSE/);
    await other.close();
    await expect(fetch(`${other.neon.url}/sql`, { method: 'POST' })).rejects.toThrow();
    await expect(fetch(`${other.qstash.url}/__standin/messages`)).rejects.toThrow();
  });
});
