/**
 * Sending from a template on workerd: the write batch through Neon's HTTP driver, quota and send
 * limit in Redis, and the follow-ups through QStash, which calls the Worker back with signed
 * deliveries; the signing e-mail's callback then sends it to the e-mail API's stand-in.
 */
import { describe, expect, inject, it, vi } from 'vitest';
import { api } from './client.js';
import { unique } from '../support/unique.js';

const nda = '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50';
const offerLetter = '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c40';
const globexAgreement = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e50';
const ndaSend = (client = `client-${unique()}@example.test`) => ({
  template_id: nda,
  recipients: [
    { role: 'Client', name: 'Cleo Client', email: client },
    { role: 'Witness', name: 'Will Witness', email: `witness-${unique()}@example.test` },
  ],
});
const send = (body: unknown, token = inject('acmeToken'), headers: Record<string, string> = {}) =>
  api('POST', '/v1/envelopes/from-template', { token, body, headers });

describe('POST /v1/envelopes/from-template on workerd', () => {
  it('sends, answers 201 with signing links, and the first signer gets the e-mail', async () => {
    const body = ndaSend();
    const answer = await send(body);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'sent', title: 'Mutual NDA', sender: { email: 'olivia@acme.test' } });
    expect(answer.body.recipients).toEqual(body.recipients);
    expect(answer.body.signing_urls.map((entry: { recipient_type: string }) => entry.recipient_type)).toEqual([
      'need-to-sign',
      'need-to-sign',
      'receives-copy',
    ]);
    expect(answer.body.signing_urls[0].signing_url).toMatch(new RegExp(`^${inject('e2eBaseUrl')}/sign/rcp_`));
    expect(answer.headers.get('ratelimit-limit')).toBe('100');

    const links = await api('GET', `/v1/envelopes/${answer.body.envelope_id}/signing-links`, { token: inject('acmeToken') });
    expect(links.body.signing_urls).toEqual(answer.body.signing_urls);

    const client = body.recipients[0]!.email;
    // The mailbox is where the README's tour says, on the service's own address, as under `npm start`.
    expect(inject('e2eMailboxUrl')).toBe(`${inject('e2eBaseUrl')}/dev/mailbox`);
    const email = await vi.waitFor(
      async () => {
        const inbox = (await (await fetch(`${inject('e2eMailboxUrl')}.json`)).json()) as { data: { to: { email: string }; subject: string; text: string }[] };
        const found = inbox.data.find((mail) => mail.to.email === client);
        if (!found) throw new Error('not yet');
        return found;
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(email.subject).toBe('Please sign the Mutual NDA');
    expect(email.text).toContain(answer.body.signing_urls[0].signing_url);
  });

  it('gives no links for a template that does not share them, and 403 for its signing links', async () => {
    const answer = await send({ template_id: offerLetter, recipients: [{ role: 'Candidate', name: 'Cara', email: `cara-${unique()}@example.test` }] });
    expect(answer.status).toBe(201);
    expect(answer.body.signing_urls).toBeNull();
    const links = await api('GET', `/v1/envelopes/${answer.body.envelope_id}/signing-links`, { token: inject('acmeToken') });
    expect([links.status, links.body.error.code]).toEqual([403, 'signing_links_disabled']);
  });

  it('answers every send error of the API reference with its code', async () => {
    const unknownRole = await send({ ...ndaSend(), recipients: [{ role: 'client', name: 'C', email: 'c@example.test' }, ndaSend().recipients[1]] });
    expect([unknownRole.status, unknownRole.body.error.code]).toEqual([422, 'unknown_signer_role']);
    const locked = await send({ ...ndaSend(), recipients: [...ndaSend().recipients, { role: 'Counsel', name: 'X', email: 'x@example.test' }] });
    expect(locked.body.error.code).toBe('unknown_signer_role');
    const duplicate = await send({ ...ndaSend(), recipients: [ndaSend().recipients[0], ndaSend().recipients[0]] });
    expect(duplicate.body.error.code).toBe('validation_failed');
    const foreign = await send({ ...ndaSend(), template_id: globexAgreement });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'template_not_found']);
    const noSeat = await send({ ...ndaSend(), sender_email: 'nora@acme.test' });
    expect([noSeat.status, noSeat.body.error.code]).toEqual([422, 'sender_not_found']);
    const viewer = await send(ndaSend(), inject('acmeViewerToken'));
    expect([viewer.status, viewer.body.error.code]).toEqual([403, 'permission_denied']);
    const unknownEnvelope = await api('GET', '/v1/envelopes/env_nope/signing-links', { token: inject('acmeToken') });
    expect([unknownEnvelope.status, unknownEnvelope.body.error.code]).toEqual([404, 'envelope_not_found']);
  });

  it('replays a send retried with the same Idempotency-Key, and refuses the key with another body', async () => {
    const key = `e2e-${unique()}`;
    const body = ndaSend();
    const first = await send(body, inject('acmeToken'), { 'Idempotency-Key': key });
    const again = await send(body, inject('acmeToken'), { 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.body.envelope_id).toBe(first.body.envelope_id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await send(ndaSend(), inject('acmeToken'), { 'Idempotency-Key': key });
    expect([other.status, other.body.error.code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('counts the quota in Redis: Globex has 2 sends a month, the third is 402', async () => {
    const globex = () =>
      send({ template_id: globexAgreement, recipients: [{ role: 'Customer', name: 'Cy', email: `cy-${unique()}@example.test` }] }, inject('globexToken'));
    expect((await globex()).status).toBe(201);
    expect((await globex()).status).toBe(201);
    const third = await globex();
    expect([third.status, third.body.error.code]).toEqual([402, 'quota_exceeded']);
  });

  it('gives exactly 10 envelopes to 50 parallel sends with 10 quota left, the other 40 get 402', async () => {
    const body = () => ({ template_id: inject('quotaTenTemplateId'), recipients: [{ role: 'Signer', name: 'S', email: `s-${unique()}@example.test` }] });
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(body(), inject('quotaTenToken'))));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
  });

  it('answers two identical parallel sends with one Idempotency-Key with one envelope', async () => {
    const key = `twins-${unique()}`;
    const body = ndaSend();
    const [first, second] = await Promise.all([
      send(body, inject('acmeToken'), { 'Idempotency-Key': key }),
      send(body, inject('acmeToken'), { 'Idempotency-Key': key }),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.envelope_id).toBe(first.body.envelope_id);
  });

  it('voids an envelope through the admin API: its links are given as null from then on', async () => {
    const sent = await send(ndaSend());
    const voided = await api('POST', `/admin/v1/envelopes/${sent.body.envelope_id}/void`, { token: inject('e2eAdminToken'), body: { reason: 'e2e' } });
    expect([voided.status, voided.body.status]).toEqual([200, 'voided']);
    const links = await api('GET', `/v1/envelopes/${sent.body.envelope_id}/signing-links`, { token: inject('acmeToken') });
    expect(links.body.signing_urls.map((entry: { signing_url: string | null }) => entry.signing_url)).toEqual([null, null, null]);
  });

  // Last: it uses up the demo key's 100 sends for the window.
  it('refuses the 101st send in 15 minutes from one key with 429 and Retry-After', async () => {
    let answer = await send(ndaSend());
    for (let i = 0; i < 101 && answer.status === 201; i++) answer = await send(ndaSend());
    expect([answer.status, answer.body.error.code]).toEqual([429, 'rate_limited']);
    expect(answer.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
