/**
 * A service configured with a time-stamping authority (TSA_URL): the envelope's finished PDF is
 * sealed PAdES B-T at completion, and while the authority is down no finished PDF is stored (no
 * seal without its time-stamp); the queue's retry makes it once the authority answers again.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createTimestampAuthorityStandin, type TimestampAuthorityStandin } from '../../local/standins/timestamp-authority.js';
import { envelopes, webhookEvents } from '../../src/data/schema.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { signingDocument } from '../../src/domain/signing/signing-document.js';
import { OID } from '../../src/pdf/cms-attributes.js';
import { call } from '../support/http.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { installed } from '../support/outside-tools.js';
import { opensslTimestampCheck, sealOf } from '../support/seal-reader.js';
import { openStack, type TestStack } from '../support/stack.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { storedBytes } from '../support/stored-documents.js';

let stack: TestStack;
let company: TestCompany;
let tsa: TimestampAuthorityStandin;
let served: ServedStandin;
let attempts = 0;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 100 });
  tsa = await createTimestampAuthorityStandin();
  served = await serveStandin({
    fetch: (request) => {
      attempts += 1;
      return tsa.fetch(request);
    },
    close: () => tsa.close(),
  });
  stack.services.config.timestampUrl = served.url;
}, 60_000);
afterAll(async () => {
  await served.close();
  await stack.close();
});

const who = { ip: '198.51.100.9', userAgent: 'Mozilla/5.0 (test)' };

/** Sends a one-signer envelope and signs it, which completes it. */
async function sendAndSign(): Promise<{ envelopeId: string; token: string }> {
  const template = await createTestTemplate(stack, company.id, {
    roles: [{ name: 'Client', type: 'signer', order: 1, locked: false }],
    fields: [{ role: 'Client', type: 'signature', page: 1, x: 72, y: 640, width: 200, height: 40, required: true }],
  });
  const sent = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: { template_id: template.id, recipients: [{ role: 'Client', name: 'Cleo Client', email: `cleo-${crypto.randomUUID().slice(0, 8)}@example.test` }] },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const token = (sent.body.signing_urls as { signing_url: string }[])[0]!.signing_url.split('/sign/')[1]!;
  const state = await bySigner(stack.services, who, openSigningLink, { token });
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  const values = Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : 'Cleo Client']));
  expect((await bySigner(stack.services, who, signAsRecipient, { token, submission: { consent: true, values } })).kind).toBe('completed');
  return { envelopeId: sent.body.envelope_id as string, token };
}

const stored = async (envelopeId: string) => {
  const [row] = await stack.services.database.db.select({ sha256: envelopes.signedDocumentSha256 }).from(envelopes).where(eq(envelopes.id, envelopeId));
  return row?.sha256 ?? null;
};
const readyEvents = async (envelopeId: string) =>
  (await stack.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, envelopeId))).filter(
    (event) => event.kind === 'envelope.document_ready',
  );

describe('finished PDFs with a time-stamping authority configured', () => {
  it.skipIf(!installed('pdfsig', 'openssl'))('are sealed PAdES B-T: a token from the authority over the seal, checked by openssl and pdfsig', async () => {
    const { envelopeId, token } = await sendAndSign();
    await vi.waitFor(async () => expect(await stored(envelopeId)).toMatch(/^[0-9a-f]{64}$/), { timeout: 15_000 });
    const finished = (await bySigner(stack.services, testSigner, signingDocument, { token }))!;
    const bytes = await storedBytes(stack.services.documents, finished.key);
    const seal = sealOf(bytes);
    expect(seal.signedAttributes).not.toContain(OID.signingTime);
    expect(await opensslTimestampCheck(seal.token!, seal.signatureValue, tsa.certificatePem)).toContain('Verification: OK');

    const dir = mkdtempSync(join(tmpdir(), 'bt-envelope-'));
    try {
      writeFileSync(join(dir, 'finished.pdf'), bytes);
      const report = execFileSync('pdfsig', ['-nocert', join(dir, 'finished.pdf')], { encoding: 'utf8' });
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Total document signed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are not stored while the authority is down, and are made once by the retry when it is back', async () => {
    tsa.mode = 'unavailable';
    const before = attempts;
    const { envelopeId, token } = await sendAndSign();
    await vi.waitFor(() => expect(attempts).toBeGreaterThan(before), { timeout: 15_000 });
    expect(await stored(envelopeId)).toBeNull();
    expect(await readyEvents(envelopeId)).toHaveLength(0);
    // Meanwhile the link still shows the document as sent, not a missing file.
    const meanwhile = await bySigner(stack.services, who, signingDocument, { token });
    expect(meanwhile).toMatchObject({ finished: false, fileName: expect.not.stringContaining('-signed') });

    tsa.mode = 'grant';
    await vi.waitFor(async () => expect(await stored(envelopeId)).toMatch(/^[0-9a-f]{64}$/), { timeout: 20_000 });
    expect(await readyEvents(envelopeId)).toHaveLength(1);
    expect(await bySigner(stack.services, who, signingDocument, { token })).toMatchObject({ finished: true });
  });
});
