/**
 * The signing ceremony on workerd, over the real PostgreSQL and Redis, as a browser without
 * JavaScript would do it: each signer opens their page, posts the form with a typed signature,
 * and the finished PDF, made by a QStash callback inside workerd, downloads through the link with
 * the hash the service announces.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it, vi } from 'vitest';
import { admin, api } from './client.js';
import { base, page, signThroughPage } from './signing-client.js';
import { unique } from '../support/unique.js';

/** Acme's demo NDA to two new people: Client signs first, then Witness. */
const sendNda = () => {
  const tag = unique();
  return api('POST', '/v1/envelopes/from-template', {
    token: inject('acmeSenderToken'),
    body: {
      template_id: '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50',
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.test` },
        { role: 'Witness', name: 'Will Witness', email: `will-${tag}@example.test` },
      ],
    },
  });
};

describe('signing on workerd', () => {
  it('two signers in turn, then the finished PDF with its announced hash', async () => {
    const sent = await sendNda();
    expect(sent.status).toBe(201);
    const [client, witness] = (sent.body.signing_urls as { signing_url: string | null }[]).flatMap((entry) =>
      entry.signing_url ? [entry.signing_url.split('/sign/')[1]!] : [],
    );

    expect((await page(`/sign/${witness}`)).text).toMatch(/not your turn/i);
    expect((await signThroughPage(client!, 'Cleo Client')).text).toMatch(/you have signed/i);
    const done = await signThroughPage(witness!, 'Will Witness');
    expect(done.status).toBe(200);

    const envelopeId = sent.body.envelope_id as string;
    const finished = await vi.waitFor(
      async () => {
        const answer = await fetch(`${base()}/admin/v1/envelopes/${envelopeId}/document`, { headers: { authorization: `Bearer ${inject('e2eAdminToken')}` } });
        if (answer.status !== 200) throw new Error(`document: ${answer.status}`);
        return { sha256: answer.headers.get('x-document-sha256'), bytes: new Uint8Array(await answer.arrayBuffer()) };
      },
      { timeout: 30_000, interval: 500 },
    );
    const download = await fetch(`${base()}/sign/${client}/document.pdf?download=1`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment/);
    const bytes = new Uint8Array(await download.arrayBuffer());
    const digest = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
    expect(digest).toBe(finished.sha256);
    expect(Buffer.from(bytes).equals(Buffer.from(finished.bytes))).toBe(true);

    const trail = await admin('GET', `/admin/v1/envelopes/${envelopeId}/audit`);
    const kinds = (trail.body.events as { kind: string }[]).map((event) => event.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['envelope.sent', 'recipient.viewed', 'recipient.consented', 'recipient.signed', 'envelope.completed', 'envelope.document_ready']),
    );
    const ready = (trail.body.events as { kind: string; data: { sha256: string } }[]).find((event) => event.kind === 'envelope.document_ready')!;
    expect(ready.data.sha256).toBe(finished.sha256);

    // Sealed in workerd and time-stamped by the local authority `npm run dev` starts (PAdES B-T),
    // as the evidence guide's check in code sees it.
    const dir = mkdtempSync(join(tmpdir(), 'e2e-seal-'));
    try {
      writeFileSync(join(dir, 'signed.pdf'), bytes);
      const { stdout } = await promisify(execFile)(process.execPath, ['examples/verify-seal.mjs', join(dir, 'signed.pdf'), finished.sha256!]);
      expect(stdout).toContain('signature:           valid');
      expect(stdout).toMatch(/time-stamp: +\S+ \(valid, over this signature\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('declines through the page: the envelope ends and the other link shows it', async () => {
    const sent = await sendNda();
    const [client, witness] = (sent.body.signing_urls as { signing_url: string | null }[]).flatMap((entry) =>
      entry.signing_url ? [entry.signing_url.split('/sign/')[1]!] : [],
    );
    const shown = await page(`/sign/${client}`);
    const formToken = /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!;
    const declined = await page(`/sign/${client}/decline`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base() },
      body: new URLSearchParams({ form_token: formToken, reason: 'The company name is wrong' }),
    });
    expect(declined.status).toBe(303);
    expect((await page(`/sign/${witness}`)).text).toMatch(/declined/i);
    // A post from another site is refused whatever it carries.
    const forged = await page(`/sign/${witness}/decline`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ form_token: formToken, reason: 'x' }),
    });
    expect(forged.status).toBe(403);
  });

  it('shows one page for an invalid link', async () => {
    const answer = await page(`/sign/rcp_${'x'.repeat(22)}.${'A'.repeat(43)}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
