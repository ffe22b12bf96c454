/**
 * A trail grown one row a failed try, as older versions let a stranger grow it, on workerd with
 * the production adapters: the finishing job (a QStash callback, the PDF Worker) reads it bounded
 * over the Neon driver and makes the finished PDF with a certificate of a few pages, and the admin
 * API answers the trail page by page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, inject, it, vi } from 'vitest';
import { installed } from '../support/outside-tools.js';
import { unique } from '../support/unique.js';
import { admin, api } from './client.js';
import { base, signThroughPage } from './signing-client.js';

const FLOOD = 45_000;
/** The rows a recipient keeps of a kind before the rest are counted (src/domain/signing/repeated-events.ts). */
const KEPT_ROWS = 10;

describe('a trail grown one row a failed try, on workerd', () => {
  it('finishes its envelope with a certificate of a few pages that counts the tries, and the admin trail answers page by page', async () => {
    const tag = unique();
    const sent = await api('POST', '/v1/envelopes/from-template', {
      token: inject('acmeSenderToken'),
      body: {
        template_id: '2f6d8e1a-3b4c-4d5e-8f9a-0b1c2d3e4f50',
        recipients: [
          { role: 'Client', name: 'Flo Client', email: `flo-${tag}@example.test` },
          { role: 'Witness', name: 'Wes Witness', email: `wes-${tag}@example.test` },
        ],
      },
    });
    expect(sent.status).toBe(201);
    const envelopeId = sent.body.envelope_id as string;
    const links = sent.body.signing_urls as { recipient_id: string; name: string; signing_url: string | null }[];
    const client = links.find((entry) => entry.name === 'Flo Client')!;
    const witness = links.find((entry) => entry.name === 'Wes Witness')!;

    // Before the signatures, as the tries of a stranger would be.
    const first = new Date(Date.now() - 60_000);
    const database = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
    await database.connect();
    try {
      await database.query(
        `insert into audit_events (company_id, envelope_id, kind, actor_type, actor_id, data, created_at)
         select e.company_id, e.id, 'recipient.code_failed', 'recipient', $2,
           jsonb_build_object('recipient_id', $2::text, 'ip', '203.0.113.' || (n % 250), 'user_agent', 'flood', 'channel', 'email', 'reason', 'dead'),
           $3::timestamptz + n * interval '1 millisecond'
         from envelopes e, generate_series(1, ${FLOOD}) n where e.id = $1`,
        [envelopeId, client.recipient_id, first.toISOString()],
      );
    } finally {
      await database.end();
    }

    expect((await signThroughPage(client.signing_url!.split('/sign/')[1]!, 'Flo Client')).status).toBe(200);
    expect((await signThroughPage(witness.signing_url!.split('/sign/')[1]!, 'Wes Witness')).status).toBe(200);
    const bytes = await vi.waitFor(
      async () => {
        const answer = await fetch(`${base()}/admin/v1/envelopes/${envelopeId}/document`, { headers: { authorization: `Bearer ${inject('e2eAdminToken')}` } });
        if (answer.status !== 200) throw new Error(`document: ${answer.status}`);
        return new Uint8Array(await answer.arrayBuffer());
      },
      { timeout: 60_000, interval: 500 },
    );
    // The demo NDA has two pages; the certificate follows them.
    const certificatePages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount() - 2;
    expect(certificatePages).toBeGreaterThanOrEqual(1);
    expect(certificatePages).toBeLessThanOrEqual(3);
    if (installed('pdftotext')) {
      const dir = mkdtempSync(join(tmpdir(), 'e2e-bounded-'));
      try {
        writeFileSync(join(dir, 'signed.pdf'), bytes);
        const text = execFileSync('pdftotext', [join(dir, 'signed.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
        expect(text).toContain(`${FLOOD - KEPT_ROWS} further failed tries at a verification code`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }

    const firstPage = await admin('GET', `/admin/v1/envelopes/${envelopeId}/audit`);
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.events).toHaveLength(100);
    expect(firstPage.body.pagination.total).toBeGreaterThan(FLOOD);
    const lastPage = await admin('GET', `/admin/v1/envelopes/${envelopeId}/audit?page=${firstPage.body.pagination.total_pages}`);
    expect((lastPage.body.events as { kind: string }[]).map((event) => event.kind)).toContain('envelope.document_ready');
  }, 180_000);
});
