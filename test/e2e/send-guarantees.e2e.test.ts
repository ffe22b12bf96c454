/**
 * The send's guarantees on workerd over the real PostgreSQL and Redis: Idempotency-Key twins with
 * one quota unit, twins with different bodies, a replay after a void, and refused sends counted
 * against the send limit, all decided by the production script in Redis.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { admin, api } from './client.js';
import { unique } from '../support/unique.js';
import { clearOfWindowEdge } from '../support/window-edge.js';
import { rateRules } from '../../src/ports/rate-limiter.js';

let token: string;
let templateId: string;
const counted = { sends: 0 };

beforeAll(async () => {
  token = inject('quotaTwoToken');
  templateId = inject('quotaTwoTemplateId');
  // The file's sends, counted by the send limit on the server's real clock, all in one window.
  await clearOfWindowEdge(rateRules.send.windowMs, 90_000);
}, 120_000);

const body = () => ({ template_id: templateId, recipients: [{ role: 'Signer', name: 'Sam', email: `sam-${unique()}@example.test` }] });
const send = (request: unknown, key?: string) => {
  counted.sends++;
  return api('POST', '/v1/envelopes/from-template', { token, body: request, headers: key ? { 'Idempotency-Key': key } : {} });
};

describe('the send under races, on workerd', () => {
  it('gives 10 parallel same-key sends one envelope, and no 402, taking one quota unit', async () => {
    const request = body();
    const key = `twins-${unique()}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(request, key)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.envelope_id)).size).toBe(1);
  });

  it('refuses same-key twins with another body with 422 idempotency_key_reused', async () => {
    const key = `reused-${unique()}`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(body(), key)));
    // The last quota unit goes to the one that claims the key; the others are refused for their body.
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422, 422]);
    for (const answer of answers.filter((a) => a.status === 422)) expect(answer.body.error.code).toBe('idempotency_key_reused');
    // Both units are used: the next send is refused.
    const next = await send(body());
    expect([next.status, next.body.error.code]).toEqual([402, 'quota_exceeded']);
  });

  it('replays a voided envelope with null links', async () => {
    const key = `void-${unique()}`;
    const replayOf = () => api('POST', '/v1/envelopes/from-template', { token: inject('acmeSenderToken'), body: request, headers: { 'Idempotency-Key': key } });
    const request = ndaBody();
    const first = await replayOf();
    expect(first.status).toBe(201);
    expect(first.body.signing_urls[0].signing_url).toMatch(/\/sign\//);
    expect((await admin('POST', `/admin/v1/envelopes/${first.body.envelope_id}/void`, { reason: 'e2e' })).status).toBe(200);
    const replay = await replayOf();
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body.envelope_id]).toEqual([201, 'true', first.body.envelope_id]);
    expect(replay.body.signing_urls.map((entry: { signing_url: string | null }) => entry.signing_url)).toEqual([null, null, null]);
  });

  it('counts refused sends: invalid sends get 422 until the limit, then 429 with Retry-After', async () => {
    const invalid = { template_id: templateId, recipients: [{ role: 'Nobody', name: 'N', email: 'n@example.test' }] };
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    const earlier = counted.sends;
    for (let i = 0; i < 150 - earlier; i++) {
      const answer = await send(invalid);
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter ??= answer.headers.get('retry-after');
    }
    const refusedAsInvalid = statuses.filter((status) => status === 422).length;
    expect(statuses).toEqual([...Array(refusedAsInvalid).fill(422), ...Array(statuses.length - refusedAsInvalid).fill(429)]);
    // Every earlier send of this key counted too: the 429s start at the 101st.
    expect(refusedAsInvalid).toBe(100 - earlier);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

const ndaBody = () => ({
  template_id: '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50',
  recipients: [
    { role: 'Client', name: 'Cleo Client', email: `client-${unique()}@example.test` },
    { role: 'Witness', name: 'Will Witness', email: `witness-${unique()}@example.test` },
  ],
});
