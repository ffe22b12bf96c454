/**
 * Where secrets may appear under `npm run dev`, and nowhere else: a flow through the Worker
 * (a webhook subscription, a send, both signers through the page, the finished PDF, the audit
 * trail, refusals), then all that npm run dev printed since its start — wrangler's request log
 * included — searched for the access token, the admin token, each signing link's secret part,
 * the webhook secret and the sealing key.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it, vi } from 'vitest';
import { admin, api } from './client.js';
import { page, signThroughPage } from './signing-client.js';

describe('secrets in the log of npm run dev', () => {
  it('shows none of them, after a whole flow', async () => {
    const token = inject('acmeSenderToken');
    const logPath = inject('e2eDevLogPath');
    const startedAt = (await readFile(logPath, 'utf8')).length;

    const subscribed = await api('POST', '/v1/webhooks', {
      token,
      body: { url: 'http://127.0.0.1:9/secrets-hook', events: ['envelope.sent', 'envelope.completed'] },
    });
    expect(subscribed.status).toBe(201);
    const sent = await api('POST', '/v1/envelopes/from-template', {
      token,
      body: {
        template_id: '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50',
        recipients: [
          { role: 'Client', name: 'Cleo Client', email: 'cleo-secrets@example.test' },
          { role: 'Witness', name: 'Will Witness', email: 'will-secrets@example.test' },
        ],
      },
    });
    expect(sent.status).toBe(201);
    const sendId = sent.headers.get('x-request-id')!;
    expect(sendId).toMatch(/^req_[0-9A-Za-z]{22}$/);
    const envelopeId = sent.body.envelope_id as string;
    const [client, witness] = (sent.body.signing_urls as { signing_url: string | null }[]).flatMap((entry) =>
      entry.signing_url ? [entry.signing_url.split('/sign/')[1]!] : [],
    );
    await signThroughPage(client!, 'Cleo Client');
    await signThroughPage(witness!, 'Will Witness');
    await vi.waitFor(async () => expect((await admin('GET', `/admin/v1/envelopes/${envelopeId}/document`)).status).toBe(200), {
      timeout: 30_000,
      interval: 500,
    });
    expect((await page(`/sign/${client}/document.pdf?download=1`)).status).toBe(200);
    await admin('GET', `/admin/v1/envelopes/${envelopeId}/audit`);
    await page(`/sign/${client}x`);
    const last = await api('GET', '/v1/templates', { token: `${token}x` });
    // wrangler writes its request log as the answers go out: wait for the last request's own line.
    const lastId = last.headers.get('x-request-id')!;
    await vi.waitFor(async () => expect(await readFile(logPath, 'utf8')).toContain(`"request_id":"${lastId}"`), { timeout: 30_000, interval: 100 });

    const seal = JSON.parse(await readFile(join(dirname(logPath), 'seal.json'), 'utf8')) as { key_pem: string };
    const secrets = {
      'access token': token,
      'admin token': inject('e2eAdminToken'),
      "the client's signing link": client!.split('.')[1]!,
      "the witness's signing link": witness!.split('.')[1]!,
      'webhook secret': subscribed.body.secret as string,
      'sealing key': seal.key_pem.replace(/-----[A-Z ]+-----|\s/g, '').slice(400, 464),
    };
    const log = (await readFile(logPath, 'utf8')).slice(startedAt);
    // The flow was logged (so the search below reads the request log, not nothing).
    expect(log).toContain('/v1/envelopes/from-template');
    expect(log).toContain('/sign/…');
    // The Worker's own line per request (what Workers Logs collects): by route pattern, with the answer's id.
    // wrangler dev prefixes each line of a Worker with its name: `[esign-api] {"request_id":…}`.
    const lines = log.split('\n').flatMap((line) => {
      const json = /\{"request_id":.*\}\s*$/.exec(line)?.[0];
      return json ? [JSON.parse(json) as Record<string, unknown>] : [];
    });
    expect(lines.filter((line) => line.request_id === sendId)).toEqual([
      {
        request_id: sendId,
        method: 'POST',
        route: '/v1/envelopes/from-template',
        status: 201,
        duration_ms: expect.any(Number),
        company_id: expect.any(String),
      },
    ]);
    expect(lines.some((line) => line.route === '/sign/{token}')).toBe(true);
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(15);
      expect(log.includes(secret), `${name} in the log of npm run dev`).toBe(false);
    }
  });
});
